import Foundation

/// A record field. Stored as a one-key JSON object (`{"int": 3}`), so the format says the type.
public enum FieldValue: Hashable, Sendable, Codable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case date(Date)
    case bytes(Data)
    case strings([String])

    private enum Key: String, CodingKey {
        case string, int, double, bool, date, bytes, strings
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a field has exactly one type key"))
        }
        switch key {
        case .string: self = .string(try container.decode(String.self, forKey: key))
        case .int: self = .int(try container.decode(Int64.self, forKey: key))
        case .double: self = .double(try container.decode(Double.self, forKey: key))
        case .bool: self = .bool(try container.decode(Bool.self, forKey: key))
        // Milliseconds since 1970 as an integer: exact and the same on every platform.
        case .date: self = .date(Date(timeIntervalSince1970: Double(try container.decode(Int64.self, forKey: key)) / 1000))
        case .bytes:
            guard let data = Data(base64Encoded: try container.decode(String.self, forKey: key)) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "bad base64")
            }
            self = .bytes(data)
        case .strings:
            let list = try container.decode([String].self, forKey: key)
            guard list.count <= CloudLimits.maxListItems else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "list too long")
            }
            self = .strings(list)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .string(let value): try container.encode(value, forKey: .string)
        case .int(let value): try container.encode(value, forKey: .int)
        case .double(let value): try container.encode(value, forKey: .double)
        case .bool(let value): try container.encode(value, forKey: .bool)
        case .date(let value): try container.encode(Int64((value.timeIntervalSince1970 * 1000).rounded()), forKey: .date)
        case .bytes(let value): try container.encode(value.base64EncodedString(), forKey: .bytes)
        case .strings(let value): try container.encode(value, forKey: .strings)
        }
    }
}
