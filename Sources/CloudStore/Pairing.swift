import Foundation

/// Joining a player's device set, and the steps a person takes on it (docs/trust.md):
/// the first machine starts the set; `devices add` on a machine in it writes a one-time
/// pairing invitation and prints its code; `devices join CODE` on the new machine lets itself in
/// with the code alone; `devices remove` takes one out; `friends trust` pins a friend again.
public enum PairingError: Error, Equatable, CustomStringConvertible {
    case notAMember(player: String)
    case badCode
    case noInvitation(String)
    case codeMismatch
    case expired(Date)
    case used(by: String)
    case nameTaken(String)
    case unknownDevice(String)
    case removingSelf
    case unknownFingerprint(String)
    case ambiguous(player: String, fingerprints: [String])
    case noSet(player: String)
    case folder(String)

    public var description: String {
        switch self {
        case .notAMember(let player):
            "not one of \(player)'s machines yet: run 'qiktionary devices add' on one that is, then 'qiktionary devices join CODE' here"
        case .badCode: "not a pairing code: it is 24 letters and digits, as 'qiktionary devices add' printed it"
        case .noInvitation(let id): "no pairing code starting \(id) is in the cloud folder (has the folder finished copying? a code lasts 10 minutes)"
        case .codeMismatch: "the code does not match the pairing in the cloud folder: check it for a mistyped character"
        case .expired(let date): "that pairing code expired at \(ISO8601DateFormatter().string(from: date)); run 'qiktionary devices add' again"
        case .used(let name): "that pairing code was used already (by '\(name)'); a code lets one machine in: run 'qiktionary devices add' again"
        case .nameTaken(let name): "a machine named '\(name)' is already one of this player's; pass another --device name, or remove it first with 'qiktionary devices remove \(name)'"
        case .unknownDevice(let name): "no machine named '\(name)' is in this player's devices (see 'qiktionary devices')"
        case .removingSelf: "this machine cannot take itself out; run 'qiktionary devices remove' on another of the player's machines"
        case .unknownFingerprint(let fingerprint): "no machine with fingerprint \(fingerprint) is in the folder"
        case .ambiguous(let player, let fingerprints):
            "\(fingerprints.count) machines each say they started \(player)'s machines (\(fingerprints.joined(separator: "; "))); compare with \(player) and give one: 'qiktionary friends trust \(player) FINGERPRINT'"
        case .noSet(let player): "no machine of \(player) has signed its files in the folder yet"
        case .folder(let reason): "the cloud folder: \(reason)"
        }
    }
}

/// How this machine stands in its player's device set, once `enroll` has looked.
public enum Enrollment: Equatable, Sendable {
    /// It was in already.
    case member
    /// It started the set; the device folders found (taken in as they were).
    case founded(takenIn: [String])
    /// It was a device folder taken in at the upgrade, and now signs its own files.
    case claimed
}

extension TrustBook {
    /// How long a pairing code lasts.
    public static let codeLifetime: TimeInterval = 600
    static let codeAlphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    static let codeLength = 24

    /// Makes sure this machine is in its player's device set before it syncs: in already (its
    /// key file written again if it went missing), the first machine of the player (it starts
    /// the set and takes in the device folders already there, as they are), or a device folder
    /// taken in at the upgrade (it claims its place). Otherwise `PairingError.notAMember`.
    /// `upgrading`: this machine synced with the folder before it signed, so the device folders
    /// already there are its player's other machines of that time; a machine new to the folder
    /// takes nobody in (a folder planted before it came would otherwise be).
    public func enroll(in folder: any CloudFolder, upgrading: Bool = false) throws(PairingError) -> Enrollment {
        let ownPath = KeyFolder.keyPath(player, key.publicKey.id)
        if enrolled {
            let kept = state.withLock { $0.kept.ownKeyFile }
            if let kept, var body = KeyFolder.decode(kept, as: KeyFileBody.self)?.0, body.device != device.name || body.label != label {
                // This machine's device id or name changed (a database made again): its key file says so.
                if body.device != device.name {
                    body.formerDevices = Array(((body.formerDevices ?? []).filter { $0 != device.name } + [body.device]).suffix(16))
                }
                body.device = device.name
                body.label = label
                try writeOwnKeyFile(body, in: folder)
                pin(player, members: [key.publicKey.id: .init(device: device.name, key: key.publicKey, label: label, formerDevices: body.formerDevices)],
                    removed: [], refreshing: true)
            } else if !folder.fileExists(ownPath), let kept {
                try write(kept, to: ownPath, in: folder)
            }
            return .member
        }
        let contents = KeyFolder.read(player, in: folder) { path, reason in warnOnce(path.description, reason) }
        let me = DeviceSet.Member(device: device.name, key: key.publicKey, label: label)
        if let mine = contents.keys[key.publicKey.id] {
            // In the folder already (the pins were lost): the set reached from this key.
            let set = KeyFolder.deviceSet(player, pinned: [me.key.id: me], removed: [], contents: contents)
            guard !set.removed.contains(me.key.id) else { throw .notAMember(player: player) }
            state.withLock { $0.kept.ownKeyFile = KeyFolder.encode(mine, path: ownPath, key: key) }
            pin(player, members: set.members, removed: set.removed)
            return .member
        }
        if contents.keys.isEmpty {
            let taken = try found(in: folder, takingIn: upgrading)
            return .founded(takenIn: taken)
        }
        if let grant = contents.grants[device.name], let signer = contents.keys[grant.opened.keyID],
           SignedFile.verify(grant.opened, path: grant.path, key: signer.key),
           !contents.keys.values.contains(where: { $0.how == .legacy && $0.device == device.name }) {
            let body = KeyFileBody(player: player, device: device.name, key: key.publicKey, label: label, how: .legacy, by: key.publicKey.id, invite: nil,
                                   grant: key.sign(KeyFileBody.grantMessage(player: player, key: key.publicKey)), at: now())
            try writeOwnKeyFile(body, in: folder)
            var after = contents
            after.keys[key.publicKey.id] = body
            let set = KeyFolder.deviceSet(player, pinned: [signer.key.id: .init(device: signer.device, key: signer.key, label: signer.label)], removed: [], contents: after)
            pin(player, members: set.members.merging([me.key.id: me]) { old, _ in old }, removed: set.removed)
            try signOwnFiles(in: folder)
            return .claimed
        }
        throw .notAMember(player: player)
    }

    /// Starts the player's set with this machine, taking in the device folders already there.
    private func found(in folder: any CloudFolder, takingIn: Bool) throws(PairingError) -> [String] {
        let body = KeyFileBody(player: player, device: device.name, key: key.publicKey, label: label, how: .founder, by: key.publicKey.id, invite: nil,
                               grant: key.sign(KeyFileBody.grantMessage(player: player, key: key.publicKey)), at: now())
        try writeOwnKeyFile(body, in: folder)
        pin(player, members: [key.publicKey.id: .init(device: device.name, key: key.publicKey, label: label)], removed: [])
        var taken: [String: [String: String]] = [:]
        let root = FolderPath(["players", player])
        for generation in ((try? folder.list(root)) ?? []) where takingIn && generation.kind == .directory && CloudGeneration.accepts(generation.name) {
            let devices = root.appending(generation.name).appending("devices")
            for entry in ((try? folder.list(devices)) ?? []) where entry.kind == .directory && DeviceID.accepts(entry.name) && entry.name != device.name {
                // Files from before signing are unsigned: a signed one was written since, by someone.
                for (path, data) in files(below: devices.appending(entry.name), in: folder) where SignedFile.read(data).isUnsigned {
                    taken[entry.name, default: [:]][path.components.dropFirst(2).joined(separator: "/")] = KeyFolder.sha256(data)
                }
            }
        }
        for (name, files) in taken.sorted(by: { $0.key < $1.key }) {
            let grant = LegacyGrantBody(player: player, device: name, by: key.publicKey.id, files: files)
            let path = KeyFolder.legacyPath(player, name)
            try write(KeyFolder.encode(grant, path: path, key: key), to: path, in: folder)
        }
        try signOwnFiles(in: folder)
        return taken.keys.sorted()
    }

    private func writeOwnKeyFile(_ body: KeyFileBody, in folder: any CloudFolder) throws(PairingError) {
        let path = KeyFolder.keyPath(player, key.publicKey.id)
        let file = KeyFolder.encode(body, path: path, key: key)
        state.withLock { $0.kept.ownKeyFile = file }
        try write(file, to: path, in: folder)
    }

    private func write(_ data: Data, to path: FolderPath, in folder: any CloudFolder) throws(PairingError) {
        do {
            try folder.write(data, to: path, mode: .replace) { _, _ in }
        } catch {
            throw .folder(error.description)
        }
        forgetSets()
    }

    /// Every regular file below `directory` (temporary files left out), at most a bounded number.
    private func files(below directory: FolderPath, in folder: any CloudFolder, budget: Int = 20_000) -> [(FolderPath, Data)] {
        var out: [(FolderPath, Data)] = []
        var pending = [directory]
        while let next = pending.popLast(), out.count < budget {
            for entry in ((try? folder.list(next)) ?? []) where !entry.name.hasPrefix(".") {
                let path = next.appending(entry.name)
                switch entry.kind {
                case .directory: pending.append(path)
                case .file:
                    if case .data(let data) = folder.read(path, limit: CloudLimits.maxSnapshotBytes + SignedFile.maxLine) { out.append((path, data)) }
                default: continue
                }
            }
        }
        return out
    }

    /// Signs, in place, this machine's files and its player's markers written before it signed:
    /// what a machine does at its first run of a version that signs.
    func signOwnFiles(in folder: any CloudFolder) throws(PairingError) {
        let root = FolderPath(["players", player])
        var targets: [FolderPath] = [root.appending("generations")]
        for generation in ((try? folder.list(root)) ?? []) where generation.kind == .directory && CloudGeneration.accepts(generation.name) {
            targets.append(root.appending(generation.name).appending("devices").appending(device.name))
        }
        for target in targets {
            for (path, data) in files(below: target, in: folder) {
                guard SignedFile.read(data).isUnsigned else { continue }
                let signed = SignedFile.seal(data, path: path, counter: counter(for: path), key: key)
                try write(signed, to: path, in: folder)
            }
        }
    }

    // MARK: Pairing

    /// Writes a one-time pairing invitation and returns its code: 24 characters (120 random
    /// bits; the folder holds only the first 4 and a public key derived from all of them).
    public func invite(in folder: any CloudFolder) throws(PairingError) -> (code: String, expires: Date) {
        guard enrolled else { throw .notAMember(player: player) }
        // This machine's codes that ran out unused are taken away (a used one stays: it is
        // what lets the machine it paired in).
        let contents = KeyFolder.read(player, in: folder) { _, _ in }
        let used = Set(contents.keys.values.compactMap(\.invite))
        for (id, invite) in contents.invites where invite.signedBy == key.publicKey.id && invite.body.expires < now() && !used.contains(id) {
            folder.remove(invite.path)
        }
        var generator = SystemRandomNumberGenerator()
        let code = String((0..<Self.codeLength).map { _ in Self.codeAlphabet[Int(generator.next(upperBound: UInt32(Self.codeAlphabet.count)))] })
        let expires = now().addingTimeInterval(Self.codeLifetime)
        let id = String(code.prefix(4))
        let body = InviteBody(player: player, id: id, key: inviteKey(code).publicKey, by: key.publicKey.id, expires: expires)
        let path = KeyFolder.invitePath(player, id)
        try write(KeyFolder.encode(body, path: path, key: key), to: path, in: folder)
        return (Self.grouped(code), expires)
    }

    static func grouped(_ code: String) -> String {
        let characters = Array(code)
        return stride(from: 0, to: characters.count, by: 4).map { String(characters[$0..<min($0 + 4, characters.count)]) }.joined(separator: "-")
    }

    /// The code as typed, made canonical (case, dashes and spaces, I/L read as 1, O as 0), or nil.
    static func normalized(_ typed: String) -> String? {
        var out = ""
        for character in typed.uppercased() {
            switch character {
            case "-", " ": continue
            case "I", "L": out.append("1")
            case "O": out.append("0")
            default:
                guard codeAlphabet.contains(character) else { return nil }
                out.append(character)
            }
        }
        return out.count == codeLength ? out : nil
    }

    private func inviteKey(_ code: String) -> DeviceKey {
        DeviceKey.derived(from: Data("qiktionary pairing 1\n\(player)\n\(code)".utf8))
    }

    /// Joins the player's set with a code from `devices add`: this machine's key is let in by
    /// the invitation, the set it joins pinned, and its own files (if any) signed.
    public func join(code typed: String, in folder: any CloudFolder) throws(PairingError) -> DeviceSet {
        guard let code = Self.normalized(typed) else { throw .badCode }
        let id = String(code.prefix(4))
        let contents = KeyFolder.read(player, in: folder) { path, reason in warnOnce(path.description, reason) }
        guard let invite = contents.invites[id] else { throw .noInvitation(id) }
        let derived = inviteKey(code)
        guard invite.body.key == derived.publicKey else { throw .codeMismatch }
        guard now() <= invite.body.expires else { throw .expired(invite.body.expires) }
        if let used = contents.keys.values.first(where: { $0.how == .invited && $0.invite == id && $0.key != key.publicKey }) {
            throw .used(by: used.label ?? used.device)
        }
        guard let inviter = contents.keys[invite.signedBy], invite.body.by == invite.signedBy,
              SignedFile.verify(invite.opened, path: invite.path, key: inviter.key)
        else { throw .codeMismatch }
        let set = KeyFolder.deviceSet(player, pinned: [inviter.key.id: .init(device: inviter.device, key: inviter.key, label: inviter.label)], removed: [], contents: contents)
        if let taken = set.members.values.first(where: { ($0.device == device.name || $0.label == label) && $0.key != key.publicKey }) {
            throw .nameTaken(taken.name)
        }
        let body = KeyFileBody(player: player, device: device.name, key: key.publicKey, label: label, how: .invited, by: inviter.key.id, invite: id,
                               grant: derived.sign(KeyFileBody.grantMessage(player: player, key: key.publicKey)), at: now())
        try writeOwnKeyFile(body, in: folder)
        let me = DeviceSet.Member(device: device.name, key: key.publicKey, label: label)
        pin(player, members: set.members.merging([me.key.id: me]) { old, _ in old }, removed: set.removed, replacing: true)
        try signOwnFiles(in: folder)
        var joined = set
        joined.members[me.key.id] = me
        return joined
    }

    /// Takes the machine named `name` out of the player's set: its later files are refused.
    public func remove(device name: String, in folder: any CloudFolder) throws(PairingError) {
        guard enrolled else { throw .notAMember(player: player) }
        forgetSets()
        guard let set = deviceSet(of: player, in: folder) else { throw .notAMember(player: player) }
        let members = set.members.values.filter { $0.device == name || $0.label == name }
        guard !members.isEmpty else { throw .unknownDevice(name) }
        guard !members.contains(where: { $0.key == key.publicKey }) else { throw .removingSelf }
        for member in members {
            let body = RemovalBody(player: player, key: member.key.id, device: name, by: key.publicKey.id, at: now())
            let path = KeyFolder.removalPath(player, member.key.id)
            try write(KeyFolder.encode(body, path: path, key: key), to: path, in: folder)
        }
        pin(player, members: [:], removed: Set(members.map(\.key.id)))
    }

    /// Pins `friend`'s machines again as a first sight would (the one machine that started
    /// them, or the one whose fingerprint is given): what a person does after comparing.
    public func trust(friend: String, fingerprint: String?, in folder: any CloudFolder) throws(PairingError) -> DeviceSet {
        let contents = KeyFolder.read(friend, in: folder) { path, reason in warnOnce(path.description, reason) }
        let root: KeyFileBody
        if let fingerprint {
            let wanted = fingerprint.lowercased().filter(\.isHexDigit)
            guard wanted.count >= 8, let found = contents.keys.values.first(where: { $0.key.fingerprint.filter(\.isHexDigit).hasPrefix(wanted) })
            else { throw .unknownFingerprint(fingerprint) }
            root = found
        } else {
            let founders = KeyFolder.founders(friend, contents: contents)
            guard founders.count <= 1 else { throw .ambiguous(player: friend, fingerprints: founders.map(\.key.fingerprint)) }
            guard let founder = founders.first else { throw .noSet(player: friend) }
            root = founder
        }
        let set = KeyFolder.deviceSet(friend, pinned: [root.key.id: .init(device: root.device, key: root.key, label: root.label)], removed: [], contents: contents)
        pin(friend, members: set.members, removed: set.removed, replacing: true)
        return set
    }
}
