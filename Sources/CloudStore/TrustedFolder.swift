import Foundation

/// The folder as this machine trusts it (docs/trust.md): every file this machine writes in its
/// own device folder or its player's generation markers is signed with its key; every file read
/// from a device folder or a marker is verified, before it is decoded, against the machines of
/// that player's device set (`TrustBook`). A device folder of a machine not in the set is not
/// listed (told once); a file that is not signed by its folder's machine is refused.
public struct TrustedFolder: CloudFolder {
    public let inner: any CloudFolder
    public let book: TrustBook

    public init(_ inner: any CloudFolder, book: TrustBook) {
        self.inner = inner
        self.book = book
    }

    enum Place {
        /// `players/<player>/<generation>/devices/<device>/…`
        case device(player: String, device: String)
        /// `players/<player>/generations/<name>`
        case marker(player: String)
        case other
    }

    static func place(_ path: FolderPath) -> Place {
        let parts = path.components
        guard parts.count >= 4, parts[0] == "players" else { return .other }
        if parts.count == 4, parts[2] == "generations" { return .marker(player: parts[1]) }
        if parts.count >= 6, parts[3] == "devices", parts[2] != "keys", parts[2] != "generations" { return .device(player: parts[1], device: parts[4]) }
        return .other
    }

    public func checkAvailable() throws(CloudStoreError) { try inner.checkAvailable() }

    public func list(_ directory: FolderPath) throws(CloudStoreError) -> [FolderEntry] {
        let entries = try inner.list(directory)
        let parts = directory.components
        guard parts.count == 4, parts[0] == "players", parts[3] == "devices", parts[2] != "keys", parts[2] != "generations" else { return entries }
        let player = parts[1]
        let set = book.deviceSet(of: player, in: inner)
        return entries.filter { entry in
            guard entry.kind == .directory, !entry.name.hasPrefix(".") else { return true }
            if let set, set.member(device: entry.name) != nil || set.legacy[entry.name] != nil { return true }
            book.warnOnce(directory.appending(entry.name).description,
                          set == nil ? "no machine of \(player) this machine trusts; not read"
                                     : "not a machine of \(player) (not in \(player)'s signed device set); not read")
            return false
        }
    }

    public func read(_ file: FolderPath, limit: Int) -> FileRead {
        verified(inner.read(file, limit: limit + SignedFile.maxLine), at: file, limit: limit)
    }

    public func read(_ names: [String], in directory: FolderPath, limit: Int) -> [FileRead] {
        let reads = inner.read(names, in: directory, limit: limit + SignedFile.maxLine)
        return zip(names, reads).map { verified($1, at: directory.appending($0), limit: limit) }
    }

    /// What `read` gives of a file: its signed bytes without the signature line, when its
    /// folder's machine signed it (or it is a legacy file as it was taken in).
    func verified(_ read: FileRead, at path: FolderPath, limit: Int) -> FileRead {
        guard case .data(let data) = read else { return read }
        let place = Self.place(path)
        let player: String
        let signers: (DeviceSet) -> [DeviceSet.Member]
        switch place {
        case .other: return read
        case .marker(let name):
            player = name
            signers = { Array($0.members.values) }
        case .device(let name, let device):
            player = name
            signers = { set in set.members.values.filter { $0.writes(device) } }
        }
        guard let set = book.deviceSet(of: player, in: inner) else {
            return .rejected(reason: "no machine of \(player) this machine trusts signed it")
        }
        switch SignedFile.read(data) {
        case .malformed(let reason): return .rejected(reason: reason)
        case .unsigned:
            if case .device(_, let device) = place, let files = set.legacy[device],
               files[path.components.dropFirst(2).joined(separator: "/")] == KeyFolder.sha256(data), data.count <= limit {
                return read
            }
            return .rejected(reason: "not signed by a machine of \(player)")
        case .signed(let opened):
            guard let signer = signers(set).first(where: { $0.key.id == opened.keyID }) else {
                return .rejected(reason: "not signed by \(Self.owner(place)) of \(player)'s machines")
            }
            // A small file read again as it was (a head between rounds) was verified already.
            let small = data.count <= TrustBook.verifiedCacheBytes
            let seen = small && book.state.withLock { $0.verified[path] == data }
            guard seen || SignedFile.verify(opened, path: path, key: signer.key) else {
                return .rejected(reason: "not signed by \(Self.owner(place)) of \(player)'s machines")
            }
            if small, !seen {
                book.state.withLock { state in
                    if state.verified.count >= TrustBook.verifiedCacheEntries { state.verified.removeAll(keepingCapacity: true) }
                    state.verified[path] = data
                }
            }
            guard opened.body.count <= limit else { return .rejected(reason: "larger than \(limit) bytes") }
            if path.name == "head" {
                let rolledBack = book.state.withLock { state -> Bool in
                    if let seen = state.heads[path], opened.counter <= seen { return opened.counter < seen }
                    state.heads[path] = opened.counter
                    state.headsMoved = true
                    return false
                }
                if rolledBack { return .rejected(reason: "an older copy of a head already read (rolled back)") }
            }
            return .data(opened.body)
        }
    }

    private static func owner(_ place: Place) -> String {
        if case .device(_, let device) = place { return "'\(device)', one" }
        return "one"
    }

    public func fileExists(_ file: FolderPath) -> Bool { inner.fileExists(file) }

    public func leadingFiles(_ names: [String], in directory: FolderPath) -> Int { inner.leadingFiles(names, in: directory) }

    @discardableResult
    public func write(_ data: Data, to file: FolderPath, mode: WriteMode, step: WriteStepHook) throws(CloudStoreError) -> Bool {
        try inner.write(signedIfOwn(data, file), to: file, mode: mode, step: step)
    }

    /// `data` signed when it is a file of this machine's own device folder or its player's markers.
    func signedIfOwn(_ data: Data, _ file: FolderPath) -> Data {
        switch Self.place(file) {
        case .device(let player, let device) where player == book.player && device == book.device.name: break
        case .marker(let player) where player == book.player: break
        default: return data
        }
        return SignedFile.seal(data, path: file, counter: book.counter(for: file), key: book.key)
    }

    public func remove(_ path: FolderPath) { inner.remove(path) }

    public func withExclusiveLock<T>(_ directory: FolderPath, _ body: () throws(CloudStoreError) -> T) throws(CloudStoreError) -> T {
        try inner.withExclusiveLock(directory, body)
    }

    public var statistics: FolderStatistics { inner.statistics }

    /// A device folder's stamp changes also when its player's keys do (a machine let in or taken out).
    public func stamp(_ path: FolderPath) -> String? {
        let parts = path.components
        guard parts.count == 4, parts[0] == "players", parts[3] == "devices", let own = inner.stamp(path) else { return inner.stamp(path) }
        guard let keys = inner.stamp(KeyFolder.directory(parts[1])) else { return nil }
        return own + "+" + keys
    }
}
