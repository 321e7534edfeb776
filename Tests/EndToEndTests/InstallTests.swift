import Foundation
import Testing
import TestSupport

/// The game installed by `scripts/install` under a prefix of its own and run from there as a
/// player would, with the checkout's build folder out of reach: what it links, what it opens, its
/// manual page and completions, and an uninstall that leaves nothing of the game behind.
///
/// The install builds the static release once into `.build-install` (several minutes the first
/// time, a no-op afterwards); `.ci/run` then packages the same build and plays it in a fresh
/// Debian root without Swift (`.ci/deb-on-plain-debian`).
@Suite(.serialized) struct InstallTests {
    static let checkout = Binary.repository
    static let installBuild = checkout.appendingPathComponent(".build-install")
    static let script = checkout.appendingPathComponent("scripts/install")

    static func tool(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The environment of a player's shell: no override of where the packs are.
    static let environment: [String: String] = {
        var env = Binary.environment
        env["QIKTIONARY_RESOURCES"] = nil
        return env
    }()

    @discardableResult
    static func run(_ program: String, _ arguments: [String], input: String = "", environment extra: [String: String] = [:],
                    timeout: TimeInterval = 120) throws -> ProcessRunner.Result {
        let result = try ProcessRunner.run(URL(fileURLWithPath: program), arguments, input: input,
                                           environment: environment.merging(extra) { $1 }, timeout: timeout)
        #expect(!result.timedOut, "\(program) \(arguments) took longer than \(Int(timeout)) s")
        return result
    }

    /// Runs scripts/install (which builds with the caller's own SwiftPM caches, under the real HOME).
    static func install(_ arguments: [String]) throws -> ProcessRunner.Result {
        let home = ProcessInfo.processInfo.environment["HOME"].map { ["HOME": $0] } ?? [:]
        return try run("/bin/bash", [script.path] + arguments, environment: home, timeout: 3600)
    }

    /// Every regular file under a folder, relative to it.
    /// Copies a program through a descriptor opened close-on-exec: a copy made another way keeps
    /// its descriptor open in any program another test starts meanwhile, and running the copy
    /// then fails with "Text file busy" for as long as that program runs.
    static func copyExecutable(_ source: String, to destination: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let fd = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        try data.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
                guard n > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                written += n
            }
        }
    }

    static func files(under folder: URL) -> [String] {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walk.compactMap { item -> String? in
            guard let url = item as? URL, (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { return nil }
            return String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
        }.sorted()
    }

    @Test(.enabled(if: tool("strace") != nil && tool("man") != nil && tool("ldd") != nil,
                   "strace, man and ldd are needed (CI installs them)"))
    func theInstalledGamePlaysWithoutTheBuildFolderAndUninstallsCleanly() throws {
        let top = FileManager.default.temporaryDirectory.appendingPathComponent("qk-install-\(UUID().uuidString)")
        let prefix = top.appendingPathComponent("prefix")
        defer { try? FileManager.default.removeItem(at: top) }
        // What the prefix held before: an uninstall must leave exactly this.
        let theirs = ["bin/another-tool", "share/man/man1/another-tool.1"]
        for path in theirs {
            let url = prefix.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("not the game's\n".utf8).write(to: url)
        }

        let installed = try Self.install(["--prefix", prefix.path])
        try #require(installed.status == 0, "scripts/install failed: \(installed.stderr)")
        let layout = Self.files(under: prefix)
        for path in ["bin/qiktionary", "share/qiktionary/words.txt", "share/qiktionary/common.txt", "share/qiktionary/daily/schedule.txt", "share/qiktionary/packs/animals.json",
                     "share/man/man1/qiktionary.1", "share/bash-completion/completions/qiktionary",
                     "share/zsh/site-functions/_qiktionary", "share/fish/vendor_completions.d/qiktionary.fish",
                     "share/doc/qiktionary/copyright", "share/qiktionary/installed-files"] {
            #expect(layout.contains(path), "\(path) is not installed")
        }
        let shippedPacks = try FileManager.default.contentsOfDirectory(atPath: Self.checkout.appendingPathComponent("Resources/packs").path)
        #expect(layout.filter { $0.hasPrefix("share/qiktionary/packs/") }.count == shippedPacks.count)
        let copyright = try String(contentsOf: prefix.appendingPathComponent("share/doc/qiktionary/copyright"), encoding: .utf8)
        #expect(copyright.contains("SCOWL") && copyright.contains("Kevin Atkinson") && copyright.contains("Runtime Library Exception")
            && copyright.contains("Gwendal Rou"))
        let binary = prefix.appendingPathComponent("bin/qiktionary").path

        // Linked: the system's C libraries only, none of the toolchain's.
        let ldd = try Self.run(Self.tool("ldd")!, [binary])
        #expect(ldd.status == 0)
        let toolchain = Self.toolchainLibraries()
        for line in ldd.stdout.split(separator: "\n") {
            #expect(!line.contains("not found"), "unresolved: \(line)")
            #expect(!line.lowercased().contains("swift") && !line.contains("libFoundation") && !line.contains("libdispatch")
                && !line.contains("libBlocksRuntime"), "a Swift library: \(line)")
            if let toolchain { #expect(!line.contains(toolchain), "from the toolchain: \(line)") }
        }
        #expect(ldd.stdout.contains("libncursesw") && ldd.stdout.contains("libsqlite3") && ldd.stdout.contains("libz"))

        // The build folder it came from, out of reach while the installed copy plays.
        let away = Self.checkout.appendingPathComponent(".build-install-away-\(UUID().uuidString)")
        try FileManager.default.moveItem(at: Self.installBuild, to: away)
        defer { try? FileManager.default.moveItem(at: away, to: Self.installBuild) }
        let data = top.appendingPathComponent("data")
        let trace = top.appendingPathComponent("trace")
        let played = try Self.run(Self.tool("strace")!, ["-f", "-qq", "-e", "trace=%file", "-o", trace.path + ".play",
                                                          binary, "play", "--plain", "--json", "--word", "tiger", "--data-dir", data.path],
                                  input: "crane\ntiger\n")
        #expect(played.status == 0, "play failed: \(played.stderr)")
        let events = played.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(events.map { $0["event"] as? String } == ["started", "feedback", "feedback", "ended"])
        #expect(events.last?["result"] as? String == "won")
        #expect(events.last?["word"] as? String == "tiger")

        let listed = try Self.run(Self.tool("strace")!, ["-f", "-qq", "-e", "trace=%file", "-o", trace.path + ".packs",
                                                         binary, "packs", "--json", "--data-dir", data.path])
        #expect(listed.status == 0, "packs failed: \(listed.stderr)")
        let packs = (try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8))) as? [[String: Any]] ?? []
        #expect(packs.count == shippedPacks.count)
        #expect(packs.contains { $0["id"] as? String == "animals" })

        // What the installed copy looked at: its own share folder, and nothing of the checkout.
        for name in ["play", "packs"] {
            let calls = try String(contentsOf: URL(fileURLWithPath: trace.path + "." + name), encoding: .utf8)
            #expect(calls.contains(prefix.appendingPathComponent("share/qiktionary/packs").path), "the trace of \(name) shows no pack read")
            let inCheckout = calls.split(separator: "\n").filter { $0.contains("\"\(Self.checkout.path)/") }
            #expect(inCheckout.isEmpty, "\(name) touched the checkout: \(inCheckout.prefix(3))")
        }
        #expect(try String(contentsOf: URL(fileURLWithPath: trace.path + ".play"), encoding: .utf8)
            .contains(prefix.appendingPathComponent("share/qiktionary/words.txt").path), "the guesses were checked without the dictionary")

        // The same binary alone, with nothing beside it: one line and exit 69, not a crash.
        let lonely = top.appendingPathComponent("lonely/qiktionary")
        try FileManager.default.createDirectory(at: lonely.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.copyExecutable(binary, to: lonely.path)
        let missing = try Self.run(lonely.path, ["packs", "--data-dir", data.path])
        #expect(missing.status == 69)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.hasPrefix("qiktionary: the game's packs and dictionary are not installed"))
        #expect(missing.stderr.split(separator: "\n").count == 1, "more than one line: \(missing.stderr)")
        let pointed = try Self.run(lonely.path, ["packs", "--data-dir", data.path],
                                   environment: ["QIKTIONARY_RESOURCES": prefix.appendingPathComponent("share/qiktionary").path])
        #expect(pointed.status == 0, "QIKTIONARY_RESOURCES was not used: \(pointed.stderr)")
        #expect(try Self.run(lonely.path, ["--version"]).status == 0, "--version needs no packs")

        // The manual page renders.
        let page = try Self.run(Self.tool("man")!, ["-l", prefix.appendingPathComponent("share/man/man1/qiktionary.1").path],
                                environment: ["MANPAGER": "cat", "MANWIDTH": "100", "LANG": "C.UTF-8"])
        #expect(page.status == 0, "man failed: \(page.stderr)")
        #expect(page.stdout.contains("NAME") && page.stdout.contains("SYNOPSIS") && page.stdout.contains("A word game of deduction"))
        for command in ["play", "sync", "reading-list", "stats"] { #expect(page.stdout.contains(command), "the page lacks \(command)") }

        // Each completion loads in its shell and completes the commands.
        let completions = prefix.appendingPathComponent("share")
        let bash = try Self.run("/bin/bash", ["-c", """
            source '\(completions.appendingPathComponent("bash-completion/completions/qiktionary").path)' || exit 1
            complete -p qiktionary || exit 1
            COMP_WORDS=(qiktionary rea); COMP_CWORD=1; COMP_LINE='qiktionary rea'; COMP_POINT=${#COMP_LINE}
            function=$(complete -p qiktionary | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')
            "$function" qiktionary rea qiktionary
            printf '%s\\n' "${COMPREPLY[@]}"
            """], environment: ["PATH": prefix.appendingPathComponent("bin").path + ":/usr/bin:/bin"])
        #expect(bash.status == 0, "bash could not load the completion: \(bash.stderr)")
        #expect(bash.stdout.contains("reading-list"), "bash completed 'rea' to: \(bash.stdout)")
        if let zsh = Self.tool("zsh") {
            let loaded = try Self.run(zsh, ["-f", "-c", """
                fpath=('\(completions.appendingPathComponent("zsh/site-functions").path)' $fpath)
                autoload -Uz compinit && compinit -u -D && autoload -Uz _qiktionary && _qiktionary 2>/dev/null; \
                (( $+functions[_qiktionary] )) && print loaded
                """])
            #expect(loaded.stdout.contains("loaded"), "zsh could not load the completion: \(loaded.stderr)")
        }
        if let fish = Self.tool("fish") {
            let completed = try Self.run(fish, ["--no-config", "-c", """
                source '\(completions.appendingPathComponent("fish/vendor_completions.d/qiktionary.fish").path)'; \
                complete -C 'qiktionary rea'
                """], environment: ["PATH": prefix.appendingPathComponent("bin").path + ":/usr/bin:/bin"])
            #expect(completed.status == 0 && completed.stdout.contains("reading-list"), "fish: \(completed.stdout) \(completed.stderr)")
        }

        // Uninstall: nothing of the game is left, and what was there before is.
        let removed = try Self.install(["--prefix", prefix.path, "--uninstall"])
        #expect(removed.status == 0, "uninstall failed: \(removed.stderr)")
        #expect(Self.files(under: prefix) == theirs.sorted())
        for folder in ["share/qiktionary", "share/bash-completion", "share/zsh", "share/fish", "share/doc"] {
            #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent(folder).path), "\(folder) is left")
        }
        #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/man/man1").path), "a folder that was there went")
    }

    /// The toolchain's library folder (`/opt/swift/usr/lib` for `/opt/swift/usr/bin/swift`), when
    /// swift is on PATH.
    static func toolchainLibraries() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let swift = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
            if FileManager.default.isExecutableFile(atPath: swift.path) {
                return swift.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("lib").path
            }
        }
        return nil
    }

    @Test func badArgumentsAndAPrefixThatCannotBeWrittenAreOneLineErrors() throws {
        let cases: [([String], Int32, String)] = [
            (["--bogus"], 64, "install: unknown argument '--bogus'"),
            (["--prefix"], 64, "install: --prefix needs a folder"),
            (["--prefix="], 64, "install: --prefix needs a folder"),
            (["--prefix", "/proc/qiktionary-cannot-be-here"], 73, "install: cannot create the prefix /proc/qiktionary-cannot-be-here"),
            (["--prefix", "/etc/hostname/below-a-file"], 73, "install: cannot create the prefix /etc/hostname/below-a-file"),
            (["--prefix", "/tmp/qk-never-installed-\(UUID().uuidString)", "--uninstall"], 66, "install: nothing to uninstall under"),
        ]
        for (arguments, status, start) in cases {
            let result = try Self.install(arguments)
            #expect(result.status == status, "\(arguments): exit \(result.status), \(result.stderr)")
            #expect(result.stderr.hasPrefix(start), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let help = try Self.install(["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage: scripts/install [--prefix DIR] [--uninstall]"))

        let deb = checkoutScript("scripts/package-deb")
        for (arguments, start) in [([String](), "package-deb: say where to write the package with --out DIR"),
                                   (["--out"], "package-deb: --out needs a folder"),
                                   (["--out", "x", "--later"], "package-deb: unknown argument '--later'")] {
            let result = try Self.run("/bin/bash", [deb] + arguments)
            #expect(result.status == 64, "\(arguments): exit \(result.status)")
            #expect(result.stderr.hasPrefix(start) && result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
    }

    func checkoutScript(_ path: String) -> String { Self.checkout.appendingPathComponent(path).path }
}
