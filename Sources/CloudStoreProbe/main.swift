// A child process for the cloud store's multi-process and crash tests: it commits numbered
// batches to a folder as one device and reports each commit on stdout once it returned.
//
//   cloudstore-probe commit --root DIR --player P --device D --zone Z --commits N --batch K
//                           --prefix X [--kill-at-step S] [--clock-offset SECONDS]
//
// Record names are "<prefix>-<commit>-<k>", so a reader can tell whether a commit is whole.
// With --kill-at-step the process SIGKILLs itself at the S-th file-writing step.
import CloudStore
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("cloudstore-probe: \(message)\n".utf8))
    exit(64)
}

let options: [String: String] = {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard arguments.first == "commit" else { fail("usage: cloudstore-probe commit --root DIR ...") }
    var options: [String: String] = [:]
    var index = 1
    while index + 1 < arguments.count {
        guard arguments[index].hasPrefix("--") else { fail("unexpected \(arguments[index])") }
        options[String(arguments[index].dropFirst(2))] = arguments[index + 1]
        index += 2
    }
    return options
}()

@MainActor func option(_ name: String) -> String {
    guard let value = options[name] else { fail("missing --\(name)") }
    return value
}

@MainActor func number(_ name: String, default value: Int? = nil) -> Int {
    guard let text = options[name] ?? value.map(String.init), let number = Int(text) else { fail("--\(name) needs a number") }
    return number
}

let faults = CloudFaults()
if let step = options["kill-at-step"] {
    guard let step = Int(step) else { fail("--kill-at-step needs a number") }
    faults.crash(atStepNumber: step, action: .killProcess)
}
let offset = TimeInterval(number("clock-offset", default: 0))

do {
    let store = try FolderCloudDatabase.onDisk(
        root: URL(fileURLWithPath: option("root")), player: option("player"), device: DeviceID(option("device")),
        options: CloudStoreOptions(now: { Date().addingTimeInterval(offset) }, faults: faults))
    let zone = try ZoneID(option("zone"))
    try store.createZone(zone)
    let prefix = option("prefix")
    let batch = number("batch")
    for commit in 0..<number("commits") {
        let records = (0..<batch).map { k in
            CloudRecord(recordType: "Probe", recordName: "\(prefix)-\(commit)-\(k)",
                        fields: ["commit": .int(Int64(commit)), "k": .int(Int64(k))])
        }
        _ = try store.modifyRecords(in: zone, saving: records, deleting: [], policy: .overwrite)
        // Unbuffered: the parent must see every reported commit even if this process is killed.
        FileHandle.standardOutput.write(Data("ok \(commit)\n".utf8))
    }
} catch {
    fail(error.description)
}
