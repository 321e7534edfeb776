import Foundation

/// Where a reader is in the cloud: the generation plus, per device log, the last segment number
/// read without a gap. Opaque to the client; store `serialized` (or `stringValue`) next to the
/// data it describes, in the same transaction.
public struct ChangeToken: Hashable, Sendable, Codable {
    public let generation: CloudGeneration
    /// `"database"` for a database token, otherwise the zone's name.
    let scope: String
    /// Keyed by device (zone tokens) or `device/zone` (database tokens).
    let positions: [String: Int]

    static let databaseScope = "*database"

    init(generation: CloudGeneration, scope: String, positions: [String: Int]) {
        self.generation = generation
        self.scope = scope
        self.positions = positions
    }

    public var serialized: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding plain strings and integers cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    public init(serialized data: Data) throws(CloudStoreError) {
        guard data.count <= CloudLimits.maxSmallFileBytes,
              let token = try? JSONDecoder().decode(ChangeToken.self, from: data),
              token.positions.values.allSatisfy({ $0 >= 0 })
        else { throw .changeTokenExpired }
        self = token
    }

    public var stringValue: String { serialized.base64EncodedString() }

    public init(string: String) throws(CloudStoreError) {
        guard let data = Data(base64Encoded: string) else { throw .changeTokenExpired }
        try self.init(serialized: data)
    }
}
