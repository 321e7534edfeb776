import Foundation

/// Where each file lives below the root (see docs/cloud-format.md):
///
///     players/<player>/generations/<generation>.gen
///     players/<player>/<generation>/devices/<device>/head
///     players/<player>/<generation>/devices/<device>/zones/<zone>/<seq>.seg
///     players/<player>/<generation>/devices/<device>/zones/<zone>/snapshot-<seq>.snap
///     players/<player>/<generation>/devices/<device>/zones/<zone>/snapshot-<seq>-<part>.part
struct CloudLayout: Sendable {
    let player: String

    var playerDirectory: FolderPath { FolderPath(["players", player]) }
    var generationsDirectory: FolderPath { playerDirectory.appending("generations") }

    func marker(_ generation: CloudGeneration) -> FolderPath {
        generationsDirectory.appending("\(generation.name).gen")
    }

    func generationDirectory(_ generation: CloudGeneration) -> FolderPath { playerDirectory.appending(generation.name) }
    func devicesDirectory(_ generation: CloudGeneration) -> FolderPath { generationDirectory(generation).appending("devices") }

    func deviceDirectory(_ generation: CloudGeneration, _ device: DeviceID) -> FolderPath {
        devicesDirectory(generation).appending(device.name)
    }

    func head(_ generation: CloudGeneration, _ device: DeviceID) -> FolderPath {
        deviceDirectory(generation, device).appending("head")
    }

    func zoneDirectory(_ generation: CloudGeneration, _ device: DeviceID, _ zone: ZoneID) -> FolderPath {
        deviceDirectory(generation, device).appending("zones").appending(zone.name)
    }

    func segment(_ generation: CloudGeneration, _ device: DeviceID, _ zone: ZoneID, _ seq: Int) -> FolderPath {
        zoneDirectory(generation, device, zone).appending(Self.segmentName(seq))
    }

    /// The name of segment `seq` in its zone's folder.
    static func segmentName(_ seq: Int) -> String { String(format: "%012d.seg", seq) }

    func snapshot(_ generation: CloudGeneration, _ device: DeviceID, _ zone: ZoneID, _ base: Int) -> FolderPath {
        zoneDirectory(generation, device, zone).appending(String(format: "snapshot-%012d.snap", base))
    }

    /// Part `index` (from 1) of the snapshot at `base` (format version 3).
    func snapshotPart(_ generation: CloudGeneration, _ device: DeviceID, _ zone: ZoneID, _ base: Int, _ index: Int) -> FolderPath {
        zoneDirectory(generation, device, zone).appending(String(format: "snapshot-%012d-%04d.part", base, index))
    }

    /// Whether a file of a zone folder belongs to the snapshot at `base`: its list or a part.
    func belongsToSnapshot(_ name: String, base: Int) -> Bool {
        let stem = String(format: "snapshot-%012d", base)
        return name == stem + ".snap" || (name.hasPrefix(stem + "-") && name.hasSuffix(".part"))
    }
}
