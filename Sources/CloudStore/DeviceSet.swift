import Crypto
import Foundation

/// A player's machines, as the signed files of `players/<player>/keys/` say (docs/trust.md):
///
///     <key id>.key           a machine's public key and how it came in, signed by that key
///     invite-<id>.inv        a pairing code's public half, signed by a machine already in
///     legacy-<device>.grant  a device folder taken in as it was at the upgrade, signed by a machine in
///     removed-<key id>.rm    a machine taken out, signed by a machine in
///
/// A machine counts only when a chain of signatures links it to a machine the reader already
/// trusts (its pin): a file anyone wrote there joins nothing.
public struct DeviceSet: Sendable, Equatable {
    public struct Member: Sendable, Hashable, Codable {
        /// The machine's device folder name (its id).
        public var device: String
        public var key: DevicePublicKey
        /// The name a person gave the machine (`--device`), as its key file says.
        public var label: String?
        /// Device folders the machine wrote under before (its device id changed: its database
        /// was made again); what it signed there still reads.
        public var formerDevices: [String]?
        public init(device: String, key: DevicePublicKey, label: String? = nil, formerDevices: [String]? = nil) {
            (self.device, self.key, self.label, self.formerDevices) = (device, key, label, formerDevices)
        }

        /// What a person calls it.
        public var name: String { label ?? device }

        /// Whether the device folder `name` is this machine's (now or before).
        public func writes(_ name: String) -> Bool { device == name || formerDevices?.contains(name) == true }
    }

    /// The machines in, by key id.
    public var members: [String: Member] = [:]
    /// Device folders taken in as they were at the upgrade, by device name: the files each held
    /// then (path below the player's folder → SHA-256), read unsigned until the machine signs.
    public var legacy: [String: [String: String]] = [:]
    /// Keys taken out.
    public var removed: Set<String> = []
    /// Valid machines' keys in the folder that no chain links to the set (told once).
    public var strangers: [Member] = []

    public init() {}

    /// The member a device folder of this name belongs to (the first by key id if two claim it).
    public func member(device: String) -> Member? {
        members.values.filter { $0.writes(device) }.min { $0.key.id < $1.key.id }
    }

    public var sortedMembers: [Member] { members.values.sorted { ($0.device, $0.key.id) < ($1.device, $1.key.id) } }
}

/// The body of a `.key` file.
struct KeyFileBody: Codable, Equatable {
    enum How: String, Codable { case founder, invited, added, legacy }
    var player: String
    var device: String
    var key: DevicePublicKey
    /// The machine's name for people (`--device`).
    var label: String?
    /// Device folders it wrote under before (at most 16).
    var formerDevices: [String]?
    var how: How
    /// The key id of the machine that let this one in (founder: itself).
    var by: String
    /// The invitation used (invited only).
    var invite: String?
    /// The signature, by the inviting key (the invite's, or `by`'s), over `grantMessage`.
    var grant: Data?
    var at: Date

    /// What a grant signs: the player and the key let in. The device folder is the key's own
    /// word (its key file is signed by it), so a machine whose device id changes (its database
    /// set aside and made again) keeps its place by writing its key file again.
    static func grantMessage(player: String, key: DevicePublicKey) -> Data {
        Data("qiktionary grant 1\n\(player)\n\(key.base64)".utf8)
    }
}

struct InviteBody: Codable, Equatable {
    var player: String
    var id: String
    var key: DevicePublicKey
    var by: String
    var expires: Date
}

struct LegacyGrantBody: Codable, Equatable {
    var player: String
    var device: String
    var by: String
    /// Path below the player's folder → SHA-256 (hex) of the file as it was.
    var files: [String: String]
}

struct RemovalBody: Codable, Equatable {
    var player: String
    var key: String
    var device: String
    var by: String
    var at: Date
}

/// Reading and writing the files of a player's `keys/` folder.
enum KeyFolder {
    static func directory(_ player: String) -> FolderPath { FolderPath(["players", player, "keys"]) }
    static let mostFiles = 512
    static let fileLimit = 1 << 20

    static func keyPath(_ player: String, _ id: String) -> FolderPath { directory(player).appending("\(id).key") }
    static func invitePath(_ player: String, _ id: String) -> FolderPath { directory(player).appending("invite-\(id).inv") }
    static func legacyPath(_ player: String, _ device: String) -> FolderPath { directory(player).appending("legacy-\(device).grant") }
    static func removalPath(_ player: String, _ id: String) -> FolderPath { directory(player).appending("removed-\(id).rm") }

    static func encode<Body: Encodable>(_ body: Body, path: FolderPath, key: DeviceKey) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let json = (try? encoder.encode(body)) ?? Data()
        return SignedFile.seal(json, path: path, counter: 0, key: key)
    }

    /// A signed file of the folder: its signer's key id and its body, nil when it is not one.
    static func decode<Body: Decodable>(_ data: Data, as type: Body.Type) -> (Body, SignedFile.Opened)? {
        guard case .signed(let opened) = SignedFile.read(data) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        guard let body = try? decoder.decode(Body.self, from: opened.body) else { return nil }
        return (body, opened)
    }

    /// What the folder holds, every file checked against its own claims (a key file signed by
    /// its key, each other file's signer named inside it), not yet against any pin.
    struct Contents {
        var keys: [String: KeyFileBody] = [:]
        var invites: [String: (body: InviteBody, signedBy: String, opened: SignedFile.Opened, path: FolderPath)] = [:]
        var grants: [String: (body: LegacyGrantBody, opened: SignedFile.Opened, path: FolderPath)] = [:]
        var removals: [(body: RemovalBody, opened: SignedFile.Opened, path: FolderPath)] = []
    }

    static func read(_ player: String, in folder: any CloudFolder, refused: (FolderPath, String) -> Void) -> Contents {
        var contents = Contents()
        let directory = directory(player)
        let entries = ((try? folder.list(directory)) ?? []).filter { $0.kind == .file && !$0.name.hasPrefix(".") }
        if entries.count > mostFiles { refused(directory, "holds \(entries.count) files, more than a player's keys can be (\(mostFiles)); the rest is not read") }
        for entry in entries.sorted(by: { $0.name < $1.name }).prefix(mostFiles) {
            let path = directory.appending(entry.name)
            guard case .data(let data) = folder.read(path, limit: fileLimit) else { continue }
            if entry.name.hasSuffix(".key") {
                guard let (body, opened) = decode(data, as: KeyFileBody.self), body.player == player, body.key.id + ".key" == entry.name,
                      (body.label?.count ?? 0) <= 64, DeviceID.accepts(body.device),
                      (body.formerDevices ?? []).count <= 16, (body.formerDevices ?? []).allSatisfy(DeviceID.accepts),
                      SignedFile.verify(opened, path: path, key: body.key)
                else { refused(path, "not a machine's key signed by itself"); continue }
                contents.keys[body.key.id] = body
            } else if entry.name.hasPrefix("invite-"), let (body, opened) = decode(data, as: InviteBody.self),
                      body.player == player, path == invitePath(player, body.id) {
                contents.invites[body.id] = (body, opened.keyID, opened, path)
            } else if entry.name.hasPrefix("legacy-"), let (body, opened) = decode(data, as: LegacyGrantBody.self),
                      body.player == player, path == legacyPath(player, body.device) {
                contents.grants[body.device] = (body, opened, path)
            } else if entry.name.hasPrefix("removed-"), let (body, opened) = decode(data, as: RemovalBody.self),
                      body.player == player, path == removalPath(player, body.key) {
                contents.removals.append((body, opened, path))
            } else if !entry.name.hasPrefix(".tmp-") {
                refused(path, "not a file of a player's keys")
            }
        }
        return contents
    }

    /// The set reached from `pinned` by the folder's signed additions: a key in the set can let
    /// another in (directly, by a pairing code, or by a legacy grant), and the machine that let
    /// a member in is a member too (the member's own signed file names it).
    static func deviceSet(_ player: String, pinned: [String: DeviceSet.Member], removed pinnedRemovals: Set<String>,
                          contents: Contents) -> DeviceSet {
        var set = DeviceSet()
        set.members = pinned
        set.removed = pinnedRemovals
        // An invitation or a legacy name used by more than one key lets none of them in.
        let inviteUses = Dictionary(grouping: contents.keys.values.filter { $0.how == .invited }, by: { $0.invite ?? "" })
        let legacyClaims = Dictionary(grouping: contents.keys.values.filter { $0.how == .legacy }, by: \.device)
        func admits(_ file: KeyFileBody) -> Bool {
            guard let grant = file.grant else { return false }
            let message = KeyFileBody.grantMessage(player: player, key: file.key)
            switch file.how {
            case .founder: return false
            case .added:
                guard let by = set.members[file.by] else { return false }
                return by.key.verifies(grant, of: message)
            case .invited:
                guard let id = file.invite, inviteUses[id]?.count == 1, let invite = contents.invites[id],
                      let signer = set.members[invite.signedBy], invite.body.by == invite.signedBy,
                      SignedFile.verify(invite.opened, path: invite.path, key: signer.key),
                      file.at <= invite.body.expires
                else { return false }
                return invite.body.key.verifies(grant, of: message)
            case .legacy:
                guard legacyClaims[file.device]?.count == 1, let legacy = contents.grants[file.device],
                      let signer = set.members[legacy.opened.keyID], legacy.body.by == legacy.opened.keyID,
                      SignedFile.verify(legacy.opened, path: legacy.path, key: signer.key)
                else { return false }
                return file.key.verifies(grant, of: message)
            }
        }
        var changed = true
        while changed {
            changed = false
            for (id, file) in contents.keys.sorted(by: { $0.key < $1.key }) where set.members[id] == nil {
                if admits(file) {
                    set.members[id] = .init(device: file.device, key: file.key, label: file.label)
                    changed = true
                }
            }
            // Whoever let a member in is one of the player's machines too.
            for member in set.members.values {
                guard let file = contents.keys[member.key.id], file.by != member.key.id, set.members[file.by] == nil,
                      let parent = contents.keys[file.by] else { continue }
                set.members[file.by] = .init(device: parent.device, key: parent.key, label: parent.label)
                changed = true
            }
        }
        for removal in contents.removals {
            guard let signer = set.members[removal.opened.keyID], removal.body.by == removal.opened.keyID,
                  SignedFile.verify(removal.opened, path: removal.path, key: signer.key) else { continue }
            set.removed.insert(removal.body.key)
        }
        for id in set.removed { set.members[id] = nil }
        // A member's device folder and name are what its own signed key file says now.
        for (id, member) in set.members {
            guard let file = contents.keys[id], file.key == member.key else { continue }
            set.members[id] = .init(device: file.device, key: file.key, label: file.label, formerDevices: file.formerDevices)
        }
        for (device, grant) in contents.grants {
            guard let signer = set.members[grant.opened.keyID], grant.body.by == grant.opened.keyID,
                  SignedFile.verify(grant.opened, path: grant.path, key: signer.key) else { continue }
            set.legacy[device] = grant.body.files
        }
        set.strangers = contents.keys.values.filter { set.members[$0.key.id] == nil && !set.removed.contains($0.key.id) }
            .map { DeviceSet.Member(device: $0.device, key: $0.key, label: $0.label) }.sorted { $0.key.id < $1.key.id }
        return set
    }

    /// The machines that say they started the player's set (signed by themselves, with a grant
    /// of their own): what a friend's first sight pins when there is exactly one.
    static func founders(_ player: String, contents: Contents) -> [KeyFileBody] {
        contents.keys.values.filter { file in
            file.how == .founder && file.by == file.key.id
                && file.grant.map { file.key.verifies($0, of: KeyFileBody.grantMessage(player: player, key: file.key)) } == true
        }.sorted { $0.key.id < $1.key.id }
    }

    static func sha256(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }
}
