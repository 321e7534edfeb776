import Foundation

/// An identifier that becomes a path component, so it is validated on every way in,
/// including decoding a file from the folder.
public protocol FolderNamed: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    var name: String { get }
    init(validated name: String)
    static func accepts(_ name: String) -> Bool
}

extension FolderNamed {
    public static func accepts(_ name: String) -> Bool { FolderName.isValid(name) }

    public init(_ name: String) throws(CloudStoreError) {
        guard Self.accepts(name) else {
            throw .invalidRecord(recordName: name, reason: "\(Self.self) uses letters, digits, _ and - (at most \(FolderName.maxLength))")
        }
        self.init(validated: name)
    }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard Self.accepts(name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad \(Self.self)"))
        }
        self.init(validated: name)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.name < rhs.name }
    public var description: String { name }
}

/// A record zone, like CloudKit's custom zones (`Games`, `ReadingList`).
public struct ZoneID: FolderNamed {
    public let name: String
    public init(validated name: String) { self.name = name }
}

/// One machine (or installation): it alone writes under `devices/<id>/`.
public struct DeviceID: FolderNamed {
    public let name: String
    public init(validated name: String) { self.name = name }
}

/// A cloud generation: `resetCloud()` starts a new one and every device must adopt it.
/// IDs order by name, so every reader picks the same current generation.
public struct CloudGeneration: FolderNamed {
    public let name: String
    public init(validated name: String) { self.name = name }
    /// `g` and a digit, so no other folder beside the generations can pass for one.
    public static func accepts(_ name: String) -> Bool {
        FolderName.isValid(name) && name.hasPrefix("g") && name.dropFirst().first?.isNumber == true
    }

    /// The generation a folder has before anyone resets it; it needs no marker file.
    public static let initial = CloudGeneration(validated: "g0")
}
