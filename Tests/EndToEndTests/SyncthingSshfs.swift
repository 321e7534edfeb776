import Foundation

/// The second real kind of shared folder beside Syncthing (SyncthingTests.swift runs the same
/// scenario through both): one folder, seen by machine A directly and by machine B through
/// sshfs over loopback (FUSE), served by an sshd of the test's own on 127.0.0.1 with host and
/// user keys of its own. A shared file system rather than a replicator: nothing is copied,
/// only sshfs's caches stand between a write and the other machine.
final class SshfsFolders: ReplicatedFolders, @unchecked Sendable {
    let root: URL
    var cloudA: URL { root.appendingPathComponent("export") }
    var cloudB: URL { root.appendingPathComponent("mnt") }
    private var keys: URL { root.appendingPathComponent("keys") }
    private var sshd: SpawnedProcess?
    private var sshfs: SpawnedProcess?
    private(set) var port: UInt16 = 0

    static let sshdPath = "/usr/sbin/sshd"

    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]).map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Why sshfs over loopback cannot run here, or nil when it can: the tools, /dev/fuse, and
    /// then a real mount of a scratch folder, since a sandbox may refuse mounting.
    static let problem: String? = {
        let reason = findProblem()
        if let reason { print("SKIPPED: sshfs over loopback: \(reason)") }
        return reason
    }()

    private static func findProblem() -> String? {
        for name in ["sshfs", "ssh", "ssh-keygen"] where tool(name) == nil { return "\(name) is not installed (apt-get install sshfs openssh-client)" }
        if !FileManager.default.isExecutableFile(atPath: sshdPath) { return "\(sshdPath) is not installed (apt-get install openssh-server)" }
        if tool("fusermount3") == nil && tool("fusermount") == nil { return "fusermount is not installed (apt-get install fuse3)" }
        guard FileManager.default.fileExists(atPath: "/dev/fuse") else { return "/dev/fuse does not exist (no FUSE in this sandbox)" }
        let fd = open("/dev/fuse", O_RDWR)
        guard fd >= 0 else { return "/dev/fuse cannot be opened: \(String(cString: strerror(errno)))" }
        close(fd)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("qk-sshfs-probe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folders = SshfsFolders(root: scratch)
        defer { folders.stop() }
        do { try folders.start(timeout: 20) } catch { return "mounting failed: \(error)" }
        return nil
    }

    init(root: URL) {
        self.root = root
    }

    func start(timeout: TimeInterval = 30) throws {
        for folder in [cloudA, cloudB, keys] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let env = ProcessInfo.processInfo.environment.merging(["HOME": keys.path]) { $1 }
        for key in ["host", "user"] {
            let status = try SpawnedProcess.runToEnd([Self.tool("ssh-keygen")!, "-q", "-t", "ed25519", "-N", "", "-C", "qk-\(key)", "-f", keys.appendingPathComponent(key).path],
                                                     environment: env, output: keys.appendingPathComponent("keygen.log"))
            guard status == 0 else { throw SyncthingError("ssh-keygen exited \(status)") }
        }
        let userKey = try String(contentsOf: keys.appendingPathComponent("user.pub"), encoding: .utf8)
        try userKey.write(to: keys.appendingPathComponent("authorized_keys"), atomically: true, encoding: .utf8)
        chmod(keys.appendingPathComponent("authorized_keys").path, 0o600)
        port = try LoopbackPorts.take(1)[0]
        let hostKey = try String(contentsOf: keys.appendingPathComponent("host.pub"), encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        try "[127.0.0.1]:\(port) \(hostKey)\n".write(to: keys.appendingPathComponent("known_hosts"), atomically: true, encoding: .utf8)
        let config = """
            ListenAddress 127.0.0.1
            Port \(port)
            HostKey \(keys.appendingPathComponent("host").path)
            AuthorizedKeysFile \(keys.appendingPathComponent("authorized_keys").path)
            PidFile none
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            PubkeyAuthentication yes
            PermitRootLogin prohibit-password
            AllowUsers \(NSUserName())
            UsePAM no
            StrictModes no
            X11Forwarding no
            AllowTcpForwarding no
            Subsystem sftp internal-sftp
            """
        try config.write(to: keys.appendingPathComponent("sshd_config"), atomically: true, encoding: .utf8)
        // sshd run by root needs its privilege separation folder; the Debian package makes it at boot.
        if getuid() == 0 && !FileManager.default.fileExists(atPath: "/run/sshd") {
            try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        }
        sshd = try SpawnedProcess([Self.sshdPath, "-D", "-e", "-f", keys.appendingPathComponent("sshd_config").path],
                                  environment: env, output: keys.appendingPathComponent("sshd.log"))
        let deadline = Date().addingTimeInterval(timeout)
        while !LoopbackPorts.accepts(port: port) {
            if let status = sshd?.exitStatus { throw SyncthingError("sshd exited \(status): \(log("sshd.log"))") }
            guard Date() < deadline else { throw SyncthingError("sshd did not listen on 127.0.0.1:\(port): \(log("sshd.log"))") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        // In the foreground (-f), so the process is ours to stop; host key pinned, no agent, no
        // user configuration.
        let options = ["port=\(port)", "IdentityFile=\(keys.appendingPathComponent("user").path)", "IdentitiesOnly=yes", "BatchMode=yes",
                       "StrictHostKeyChecking=yes", "UserKnownHostsFile=\(keys.appendingPathComponent("known_hosts").path)", "LogLevel=ERROR"]
        sshfs = try SpawnedProcess([Self.tool("sshfs")!, "-f", "-F", "/dev/null", "-o", options.joined(separator: ","),
                                    "\(NSUserName())@127.0.0.1:\(cloudA.path)", cloudB.path],
                                   environment: env, output: keys.appendingPathComponent("sshfs.log"))
        while !mounted {
            if let status = sshfs?.exitStatus { throw SyncthingError("sshfs exited \(status): \(log("sshfs.log"))") }
            guard Date() < deadline else { throw SyncthingError("sshfs did not mount in time: \(log("sshfs.log"))") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        // Through the mount and back.
        try Data("probe".utf8).write(to: cloudB.appendingPathComponent("probe"))
        guard (try? Data(contentsOf: cloudA.appendingPathComponent("probe"))) == Data("probe".utf8) else {
            throw SyncthingError("a file written through the sshfs mount did not arrive in the folder")
        }
        try FileManager.default.removeItem(at: cloudB.appendingPathComponent("probe"))
    }

    /// Whether the mount point is an sshfs mount now.
    var mounted: Bool {
        let table = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 4 && fields[4] == cloudB.path && line.contains(" fuse.sshfs ")
        }
    }

    func wrote(onA: Bool) throws {}

    func conflictCopies() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: cloudA.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { ($0 as NSString).lastPathComponent.contains(".sync-conflict-") }
    }

    /// Unmounts, then stops sshfs and sshd (killing them if they do not go), and the session
    /// processes sshd forked for sshfs's connection.
    func stop() {
        let sessions = sshd.map { Self.children(of: $0.pid) } ?? []
        if mounted, let fusermount = Self.tool("fusermount3") ?? Self.tool("fusermount") {
            _ = try? SpawnedProcess.runToEnd([fusermount, "-u", "-z", cloudB.path], environment: ProcessInfo.processInfo.environment,
                                             output: keys.appendingPathComponent("fusermount.log"), timeout: 20)
        }
        for (process, signal) in [(sshfs, SIGTERM), (sshd, SIGTERM)] {
            guard let process else { continue }
            if !process.waitForExit(timeout: process === sshfs ? 5 : 0) { process.kill(signal) }
            if !process.waitForExit(timeout: 5) {
                process.kill(SIGKILL)
                _ = process.waitForExit(timeout: 5)
            }
        }
        sshfs = nil
        sshd = nil
        let deadline = Date().addingTimeInterval(5)
        while sessions.contains(where: { Self.alive($0) }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        for pid in sessions where Self.alive(pid) { kill(pid, SIGKILL) }
        // sshfs's own ssh client ends once the pipe to sshfs closes: on a busy machine that can
        // come a moment after sshfs itself, so it is waited for (the test then checks it ended).
        let clients = Date().addingTimeInterval(5)
        while !processesLeft().isEmpty && Date() < clients { Thread.sleep(forTimeInterval: 0.05) }
    }

    /// Processes whose parent is `pid` (sshd's session processes are not reaped by us: their
    /// parent sshd waits for them).
    static func children(of pid: pid_t) -> [pid_t] {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
        return pids.filter { child in
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                  let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 2 else { return false }
            return Int32(fields[1]) == pid
        }
    }

    static func alive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
    }

    var isRunning: Bool { (sshfs?.exitStatus == nil && sshfs != nil) || (sshd?.exitStatus == nil && sshd != nil) }

    /// Live processes whose command line names this folder's keys or mount: none once stopped.
    func processesLeft() -> [String] { SpawnedProcess.live(commandContaining: root.path) }

    private func log(_ name: String) -> String {
        ((try? String(contentsOf: keys.appendingPathComponent(name), encoding: .utf8)) ?? "").split(separator: "\n").suffix(10).joined(separator: "\n")
    }
}
