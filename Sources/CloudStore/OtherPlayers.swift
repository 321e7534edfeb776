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
}
