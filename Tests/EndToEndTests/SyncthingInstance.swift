import Foundation
import Testing

/// A real replicator for the end-to-end tests: Syncthing instances of the test's own, on
/// 127.0.0.1 only, each with a home, ports, API key and log of its own.
///
/// Written against Syncthing 1.19 (Debian bookworm's 1.19.2): `syncthing generate --home DIR
/// --no-default-folder`, then the generated `config.xml` is edited (nothing reaches the internet:
/// global and local discovery, relays, NAT traversal, usage and crash reporting and upgrades are
/// off), and `syncthing serve --home DIR --no-browser --no-restart` runs it as one process.
final class SyncthingInstance: @unchecked Sendable {
    static let folderID = "qiktionary"

    let name: String
    let home: URL
    let folder: URL
    let apiKey: String
    let guiPort: UInt16
    let listenPort: UInt16
    private(set) var deviceID = ""
    private var process: SpawnedProcess?

    var log: URL { home.appendingPathComponent("syncthing.log") }

    init(name: String, home: URL, folder: URL, guiPort: UInt16, listenPort: UInt16) {
        self.name = name
        self.home = home
        self.folder = folder
        self.guiPort = guiPort
        self.listenPort = listenPort
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        apiKey = "qk-" + String((0..<32).map { _ in letters.randomElement()! })
    }

    /// The syncthing executable on PATH, or nil.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/syncthing" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Its environment: no upgrades, no default folder, HOME inside its own home, and
    /// STMONITORED. Syncthing 1.19's `serve` is a monitor that starts the real Syncthing as a
    /// child (marked by STMONITORED=yes), even with --no-restart; set here, the process spawned
    /// is Syncthing itself, one per instance, so what stops or kills it leaves nothing behind.
    private var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home.path
        env["STNOUPGRADE"] = "1"
        env["STNODEFAULTFOLDER"] = "1"
        env["STMONITORED"] = "yes"
        return env
    }

    /// Generates keys and a configuration, and reads the device ID.
    func generate() throws {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let generated = try SpawnedProcess.runToEnd([Self.executable!, "generate", "--home", home.path, "--no-default-folder", "--skip-port-probing"],
                                                    environment: environment, output: home.appendingPathComponent("generate.log"))
        guard generated == 0 else { throw SyncthingError("syncthing generate exited \(generated): \(tail(home.appendingPathComponent("generate.log")))") }
        let idFile = home.appendingPathComponent("device-id.txt")
        let status = try SpawnedProcess.runToEnd([Self.executable!, "serve", "--home", home.path, "--device-id"], environment: environment, output: idFile)
        let output = (try? String(contentsOf: idFile, encoding: .utf8)) ?? ""
        guard status == 0, let id = output.range(of: "[A-Z2-7]{7}(-[A-Z2-7]{7}){7}", options: .regularExpression) else {
            throw SyncthingError("syncthing --device-id gave \(status) and '\(output)'")
        }
        deviceID = String(output[id])
    }

    /// Writes the configuration: private addresses and ports, our API key, nothing reaching out,
    /// the peer at its address, and the one shared folder with every field written out.
    func configure(peer: SyncthingInstance) throws {
        let file = home.appendingPathComponent("config.xml")
        var xml = try String(contentsOf: file, encoding: .utf8)
        guard xml.contains("<device id=\"\(deviceID)\"") else { throw SyncthingError("config.xml does not name device \(deviceID)") }

        try SyncthingConfigXML.setElement("address", to: "127.0.0.1:\(guiPort)", after: "<gui ", in: &xml)
        try SyncthingConfigXML.setElement("apikey", to: apiKey, after: "<gui ", in: &xml)
        let options: [(String, String)] = [
            ("listenAddress", "tcp://127.0.0.1:\(listenPort)"),
            ("globalAnnounceEnabled", "false"),
            ("localAnnounceEnabled", "false"),
            ("relaysEnabled", "false"),
            ("natEnabled", "false"),
            ("urAccepted", "-1"),
            ("crashReportingEnabled", "false"),
            ("autoUpgradeIntervalH", "0"),
            ("startBrowser", "false"),
            // Not niced below the qiktionary processes it races with on a small machine.
            ("setLowPriority", "false"),
            // A dropped connection is dialled again within seconds, not a minute.
            ("reconnectionIntervalS", "5"),
        ]
        for (name, value) in options { try SyncthingConfigXML.setElement(name, to: value, after: "<options>", in: &xml) }

        // The peer: the defaults' device block with its ID, name and fixed address.
        var device = try SyncthingConfigXML.element("device", startingWith: "<device id=\"\"", after: "<defaults>", in: xml)
        device = device.replacingOccurrences(of: "<device id=\"\"", with: "<device id=\"\(peer.deviceID)\" name=\"\(peer.name)\"")
        try SyncthingConfigXML.setElement("address", to: "tcp://127.0.0.1:\(peer.listenPort)", after: "", in: &device)

        // The folder: the defaults' folder block with every field, shared with the peer.
        var folderXML = try SyncthingConfigXML.element("folder", startingWith: "<folder ", after: "<defaults>", in: xml)
        for (attribute, value) in [("id", Self.folderID), ("label", Self.folderID), ("path", folder.path), ("type", "sendreceive"),
                                   ("rescanIntervalS", "10"), ("fsWatcherEnabled", "true"), ("fsWatcherDelayS", "1")] {
            try SyncthingConfigXML.setAttribute(attribute, to: value, in: &folderXML)
        }
        let ownDevice = try SyncthingConfigXML.element("device", startingWith: "<device id=\"\(deviceID)\"", after: "", in: folderXML)
        let peerDevice = ownDevice.replacingOccurrences(of: "<device id=\"\(deviceID)\"", with: "<device id=\"\(peer.deviceID)\"")
        folderXML = folderXML.replacingOccurrences(of: ownDevice, with: ownDevice + "\n            " + peerDevice)

        guard let gui = xml.range(of: "    <gui ") else { throw SyncthingError("config.xml has no <gui>") }
        xml.insert(contentsOf: "    " + folderXML + "\n    " + device + "\n", at: gui.lowerBound)
        try xml.write(to: file, atomically: true, encoding: .utf8)

        // The folder marker Syncthing requires before it syncs a folder that already exists.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".stfolder"), withIntermediateDirectories: true)
    }

    func start() throws {
        process = try SpawnedProcess([Self.executable!, "serve", "--home", home.path, "--no-browser", "--no-restart", "--logflags=3"],
                                     environment: environment, output: log)
    }

    /// Waits until the REST API answers with our device ID and the listen port takes connections.
    func waitUntilListening(deadline: Date) throws {
        while Date() < deadline {
            if let exited = process?.exitStatus { throw SyncthingError("\(name) exited \(exited) while starting: \(tail(log))") }
            if let status = try? json("GET", "/rest/system/status"), status["myID"] as? String == deviceID,
               LoopbackPorts.accepts(port: listenPort) { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw SyncthingError("\(name)'s API did not answer in time: \(tail(log))")
    }

    /// Waits until the REST API answers with our device ID, the peer is connected and the
    /// folder is idle.
    func waitUntilReady(peer: SyncthingInstance, deadline: Date) throws {
        var last = "no answer"
        while Date() < deadline {
            if let exited = process?.exitStatus { throw SyncthingError("\(name) exited \(exited) while starting: \(tail(log))") }
            if let status = try? json("GET", "/rest/system/status"), status["myID"] as? String == deviceID,
               let connections = (try? json("GET", "/rest/system/connections"))?["connections"] as? [String: Any],
               let folderStatus = try? json("GET", "/rest/db/status?folder=\(Self.folderID)") {
                let connected = (connections[peer.deviceID] as? [String: Any])?["connected"] as? Bool == true
                let state = folderStatus["state"] as? String ?? "?"
                if state == "error" { throw SyncthingError("\(name)'s folder is in error: \(folderStatus["error"] ?? "")") }
                if connected && state == "idle" { return }
                last = "connected \(connected), folder \(state)"
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        throw SyncthingError("\(name) not ready in time (\(last)): \(tail(log))")
    }

    /// Asks for a scan of the folder now, so a change goes out without waiting for the watcher.
    func scan() throws {
        let (status, body) = try LoopbackHTTP.request("POST", "/rest/db/scan?folder=\(Self.folderID)", port: guiPort, apiKey: apiKey)
        guard status == 200 else { throw SyncthingError("\(name): scan answered \(status) \(String(decoding: body, as: UTF8.self))") }
    }

    /// Whether the folder is idle and the peer has everything we have (completion 100).
    func inStep(with peer: SyncthingInstance) -> Bool {
        guard let folder = try? json("GET", "/rest/db/status?folder=\(Self.folderID)"), folder["state"] as? String == "idle",
              (folder["needFiles"] as? Int ?? 1) == 0,
              let completion = try? json("GET", "/rest/db/completion?folder=\(Self.folderID)&device=\(peer.deviceID)") else { return false }
        return (completion["completion"] as? Double ?? 0) >= 100 && (completion["needItems"] as? Int ?? 1) == 0
    }

    func json(_ method: String, _ path: String) throws -> [String: Any] {
        let (status, body) = try LoopbackHTTP.request(method, path, port: guiPort, apiKey: apiKey)
        guard status == 200, let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw SyncthingError("\(name): \(method) \(path) answered \(status)")
        }
        return object
    }

    /// Shuts it down through the API, then makes sure the process has exited (killing it if not).
    func stop() {
        guard let process else { return }
        if process.exitStatus == nil { _ = try? LoopbackHTTP.request("POST", "/rest/system/shutdown", port: guiPort, apiKey: apiKey) }
        if !process.waitForExit(timeout: 10) {
            process.kill(SIGKILL)
            _ = process.waitForExit(timeout: 10)
        }
        self.process = nil
    }

    var isRunning: Bool { process.map { $0.exitStatus == nil } ?? false }

    /// Live processes whose command line names this instance's home: none once it is stopped.
    func processesLeft() -> [String] { SpawnedProcess.live(commandContaining: home.path + " ") }

    func tail(_ file: URL, lines: Int = 15) -> String {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

/// Two instances sharing one folder: `folderA` on one, `folderB` on the other.
final class SyncthingPair: @unchecked Sendable {
    let root: URL
    let a: SyncthingInstance
    let b: SyncthingInstance
    var folderA: URL { a.folder }
    var folderB: URL { b.folder }

    init(root: URL) throws {
        self.root = root
        let ports = try LoopbackPorts.take(4)
        a = SyncthingInstance(name: "st-a", home: root.appendingPathComponent("syncthing-a"), folder: root.appendingPathComponent("cloud-a"),
                              guiPort: ports[0], listenPort: ports[1])
        b = SyncthingInstance(name: "st-b", home: root.appendingPathComponent("syncthing-b"), folder: root.appendingPathComponent("cloud-b"),
                              guiPort: ports[2], listenPort: ports[3])
        for instance in [a, b] { try FileManager.default.createDirectory(at: instance.folder, withIntermediateDirectories: true) }
    }

    /// Generates, configures and starts both, and waits until they are connected and idle.
    func start(timeout: TimeInterval = 60) throws {
        try a.generate()
        try b.generate()
        try a.configure(peer: b)
        try b.configure(peer: a)
        let deadline = Date().addingTimeInterval(timeout)
        // One after the other: B's first dial, as it starts, finds A listening. Started together,
        // both first dials can miss, and Syncthing then waits 1, 2, 4, 8… s between tries.
        try a.start()
        try a.waitUntilListening(deadline: deadline)
        try b.start()
        try a.waitUntilReady(peer: b, deadline: deadline)
        try b.waitUntilReady(peer: a, deadline: deadline)
    }

    /// Waits until both folders are idle and each side has everything the other has.
    func waitUntilInStep(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if a.inStep(with: b) && b.inStep(with: a) { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return false
    }

    func stop() {
        a.stop()
        b.stop()
    }
}

struct SyncthingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Small edits of Syncthing's config.xml as text: the file is Syncthing's own, one element per
/// line, and every edit fails loudly if what it expects is not there.
enum SyncthingConfigXML {
    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Replaces the text of the first `<name>…</name>` after `anchor`.
    static func setElement(_ name: String, to value: String, after anchor: String, in xml: inout String) throws {
        let from = anchor.isEmpty ? xml.startIndex : (xml.range(of: anchor)?.upperBound ?? xml.endIndex)
        guard from < xml.endIndex, let open = xml.range(of: "<\(name)>", range: from..<xml.endIndex),
              let close = xml.range(of: "</\(name)>", range: open.upperBound..<xml.endIndex) else {
            throw SyncthingError("config.xml has no <\(name)> after '\(anchor)'")
        }
        xml.replaceSubrange(open.upperBound..<close.lowerBound, with: escaped(value))
    }

    /// The whole first element `<name …>…</name>` that starts with `start`, after `anchor`.
    static func element(_ name: String, startingWith start: String, after anchor: String, in xml: String) throws -> String {
        let from = anchor.isEmpty ? xml.startIndex : (xml.range(of: anchor)?.upperBound ?? xml.endIndex)
        guard from < xml.endIndex, let open = xml.range(of: start, range: from..<xml.endIndex),
              let close = xml.range(of: "</\(name)>", range: open.upperBound..<xml.endIndex) else {
            throw SyncthingError("config.xml has no \(start)…</\(name)> after '\(anchor)'")
        }
        return String(xml[open.lowerBound..<close.upperBound])
    }

    /// Sets an attribute of the element's opening tag.
    static func setAttribute(_ name: String, to value: String, in element: inout String) throws {
        guard let tagEnd = element.firstIndex(of: ">"),
              let attribute = element.range(of: " \(name)=\"", range: element.startIndex..<tagEnd),
              let quote = element[attribute.upperBound...].firstIndex(of: "\"") else {
            throw SyncthingError("config.xml's element has no attribute \(name): \(element.prefix(200))")
        }
        element.replaceSubrange(attribute.upperBound..<quote, with: escaped(value))
    }
}

/// HTTP/1.0 over a loopback socket: enough for Syncthing's REST API, with nothing to install.
enum LoopbackHTTP {
    static func request(_ method: String, _ path: String, port: UInt16, apiKey: String, timeout: Int = 30) throws -> (Int, Data) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SyncthingError("socket: errno \(errno)") }
        defer { close(fd) }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = LoopbackPorts.loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw SyncthingError("connect 127.0.0.1:\(port): errno \(errno)") }
        let request = "\(method) \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nX-API-Key: \(apiKey)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        var bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeMutableBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw SyncthingError("send to 127.0.0.1:\(port): errno \(errno)") }
            sent += n
        }
        var response = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { break }
            guard n > 0 else { throw SyncthingError("recv from 127.0.0.1:\(port): errno \(errno)") }
            response.append(contentsOf: buffer[0..<n])
        }
        guard let split = response.range(of: Data("\r\n\r\n".utf8)) else { throw SyncthingError("no HTTP answer from 127.0.0.1:\(port)") }
        let head = String(decoding: response[..<split.lowerBound], as: UTF8.self)
        let parts = head.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw SyncthingError("bad HTTP status line: \(head.prefix(80))") }
        return (status, Data(response[split.upperBound...]))
    }
}

enum LoopbackPorts {
    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Whether something listens on 127.0.0.1:`port`.
    static func accepts(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Every port handed out in this process, never handed out again: tests that run at the
    /// same time would otherwise be given a port another has just chosen and not bound yet.
    private static let given = PortsGiven()

    /// `count` distinct ports free on 127.0.0.1 (the kernel's choice for port 0), all held until
    /// every one is chosen so none is handed out twice.
    static func take(_ count: Int) throws -> [UInt16] {
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        var ports: [UInt16] = []
        while ports.count < count {
            guard sockets.count < count + 100 else { throw SyncthingError("no free port on 127.0.0.1") }
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw SyncthingError("socket: errno \(errno)") }
            sockets.append(fd)
            var address = loopback(port: 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            guard bound else { throw SyncthingError("bind 127.0.0.1:0: errno \(errno)") }
            let port = UInt16(bigEndian: address.sin_port)
            if given.insert(port) { ports.append(port) }
        }
        return ports
    }
}

final class PortsGiven: @unchecked Sendable {
    private var values: Set<UInt16> = []
    private let lock = NSLock()

    /// Inserts `value`; false when it was there already.
    func insert(_ value: UInt16) -> Bool { lock.withLock { values.insert(value).inserted } }
}

/// A child process spawned with a clean signal mask and default signal handlers (the test
/// runner blocks and ignores some, and a child would inherit that), stdin from /dev/null, its
/// output in a file, and no other descriptor of the runner's.
///
/// A thread of its own spawns it and then waits for it, so the child is always reaped. Through
/// `setpriv --pdeathsig KILL` (util-linux, where present) the child is also killed if that
/// thread dies, which is when the whole test runner dies: a crashed run leaves no orphan.
final class SpawnedProcess: @unchecked Sendable {
    private let lock = NSLock()
    private let started = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private var spawnedPID: pid_t = 0
    private var spawnError: Int32 = 0
    private var status: Int32?

    static let setpriv: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") ? "/usr/bin/setpriv" : nil

    init(_ arguments: [String], environment: [String: String], output: URL) throws {
        let argv = (Self.setpriv.map { [$0, "--pdeathsig", "KILL", "--"] } ?? []) + arguments
        let env = environment.map { "\($0.key)=\($0.value)" }
        let outputPath = output.path
        Thread.detachNewThread { [self] in
            var pid = pid_t()
            let error = Self.spawn(argv, env, outputPath, &pid)
            lock.withLock { spawnedPID = pid; spawnError = error }
            started.signal()
            guard error == 0 else { exited.signal(); return }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            // Exit code, or 128 + the signal that ended it.
            let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            lock.withLock { status = code }
            exited.signal()
        }
        started.wait()
        let error = lock.withLock { spawnError }
        if error != 0 { throw SyncthingError("could not start \(argv[0]): \(String(cString: strerror(error)))") }
    }

    var pid: pid_t { lock.withLock { spawnedPID } }
    var exitStatus: Int32? { lock.withLock { status } }

    func waitForExit(timeout: TimeInterval) -> Bool {
        if exitStatus != nil { return true }
        guard exited.wait(timeout: .now() + timeout) == .success else { return false }
        exited.signal()
        return true
    }

    /// Signals the process only while it has not been reaped, so the ID can't be someone else's.
    func kill(_ signal: Int32) {
        lock.withLock { if status == nil && spawnedPID > 0 { _ = Glibc.kill(spawnedPID, signal) } }
    }

    /// Live processes (not zombies) whose command line contains `text`, as "pid: command".
    static func live(commandContaining text: String) -> [String] {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { Int32($0) != nil }
        return pids.compactMap { pid -> String? in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty,
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let state = stat.split(separator: ")").last?.split(separator: " ").first, state != "Z" else { return nil }
            let command = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return command.contains(text) ? "\(pid): \(command)" : nil
        }
    }

    /// Runs a short command to its end and returns its exit status.
    static func runToEnd(_ arguments: [String], environment: [String: String], output: URL, timeout: TimeInterval = 60) throws -> Int32 {
        let process = try SpawnedProcess(arguments, environment: environment, output: output)
        if !process.waitForExit(timeout: timeout) {
            process.kill(SIGKILL)
            _ = process.waitForExit(timeout: 10)
            throw SyncthingError("\(arguments.joined(separator: " ")) did not finish in \(Int(timeout)) s")
        }
        return process.exitStatus ?? -1
    }

    private static func spawn(_ argv: [String], _ env: [String], _ output: String, _ pid: inout pid_t) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for number in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGCHLD, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = env.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) }; cEnvironment.forEach { free($0) } }
        return posix_spawn(&pid, argv[0], &actions, &attributes, &cArguments, &cEnvironment)
    }
}
