import Foundation

/// Reading the stores of the other players of a folder (docs/multiplayer.md): each player's
/// machines write only their own player's folder, and read every player's shared zone.
extension FolderCloudDatabase {
    /// The device a reader names itself: no device folder can have this name, so a reader's
    /// fetches count every device's records (a fetch leaves out only the reader's own) and its
    /// token never mistakes a real device for itself. A reader is only asked to fetch: it
    /// writes nothing anywhere.
    static let readerDevice = DeviceID(validated: ".reader")

    /// A store that reads `player`'s folder in `folder` and never writes to it.
    public static func reader(of player: String, in folder: any CloudFolder, options: CloudStoreOptions = .init()) throws(CloudStoreError) -> FolderCloudDatabase {
        try FolderCloudDatabase(folder: folder, player: player, device: readerDevice, options: options)
    }

    /// The names of the players with a folder in `folder` (`players/<name>/`), sorted; names a
    /// folder could not hold are left out.
    public static func players(in folder: any CloudFolder) throws(CloudStoreError) -> [String] {
        try folder.list(FolderPath(["players"])).filter { $0.kind == .directory && FolderName.isValid($0.name) }.map(\.name).sorted()
    }

    /// A text that changes whenever what this store's last read looked at changes: the
    /// generation markers' folder, the generation's device folders and every device's head, by
    /// their metadata alone (no file opened). Nil before a read, or when the folder cannot tell.
    /// Equal stamps before two reads mean the second would find the heads as the first did;
    /// a segment published before its head (a replicator's order, or a writer stopped between
    /// the two) is not seen by a stamp, so a caller that skips reads on it still reads now and then.
    public func stamp() -> String? {
        let (generation, devices) = state.withLock { ($0.generation, $0.headDevices) }
        guard let generation else { return nil }
        var parts: [String] = []
        for path in [layout.generationsDirectory, layout.devicesDirectory(generation)] + devices.map({ layout.head(generation, $0) }) {
            guard let stamp = folder.stamp(path) else { return nil }
            parts.append(stamp)
        }
        return parts.joined(separator: ",")
    }
}
