import Foundation
import Spawn
#if canImport(Glibc)
import Glibc
#endif

/// Runs the real `qiktionary` program as a child process and reads its wall time and peak
/// memory (maximum resident set size, from wait4), so the figures are the shipped program's.
enum Child {
    struct Outcome {
        var milliseconds: Double
        var peakMegabytes: Double
        var status: Int32
        var output: String
    }

    /// The `qiktionary` built next to this benchmark (`swift build -c release` builds both).
    static let program: URL = {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("qiktionary")
    }()

    /// Runs `program arguments`; with `terminal`, inside a new pseudo-terminal of that size
    /// whose input already holds `input` (the program reads it once it is up).
    static func run(_ arguments: [String], terminal: (width: Int, height: Int)? = nil, input: [UInt8] = []) throws -> Outcome {
        guard FileManager.default.isExecutableFile(atPath: program.path) else {
            throw BenchFailure("\(program.path) is missing: build it first with 'swift build -c release'")
        }
        var inputFD: Int32 = -1, outputFD: Int32 = -1, reader: Int32 = -1, closeInChild: [Int32] = []
        if let terminal {
            var master: Int32 = 0, slave: Int32 = 0
            var size = winsize(ws_row: UInt16(terminal.height), ws_col: UInt16(terminal.width), ws_xpixel: 0, ws_ypixel: 0)
            guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw BenchFailure("openpty failed") }
            // Raw, so a queued Ctrl-C reaches the program as a key rather than as a signal.
            var modes = termios()
            tcgetattr(slave, &modes)
            cfmakeraw(&modes)
            tcsetattr(slave, TCSANOW, &modes)
            if !input.isEmpty { _ = input.withUnsafeBytes { write(master, $0.baseAddress, $0.count) } }
            inputFD = slave; outputFD = slave; reader = master
            closeInChild = [master]
        } else {
            var pipeFDs: [Int32] = [0, 0]
            guard pipe(&pipeFDs) == 0 else { throw BenchFailure("pipe failed") }
            inputFD = open("/dev/null", O_RDONLY); outputFD = pipeFDs[1]; reader = pipeFDs[0]
            closeInChild = [pipeFDs[0]]
        }

        // The program is started by a small copy of this benchmark (see `measureChild`), which
        // times it and reads its peak memory, and reports both on descriptor 3.
        var report: [Int32] = [0, 0]
        guard pipe(&report) == 0 else { throw BenchFailure("pipe failed") }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let status = try spawn(me, ["--measure-child", program.path] + arguments, stdin: inputFD, stdout: outputFD,
                               extra: report[1], closing: closeInChild + [report[0]])
        close(inputFD)
        if outputFD != inputFD { close(outputFD) }
        close(report[1])

        // Drain the output as it comes, or a full terminal buffer would stop the program.
        let output = drain(reader)
        close(reader)
        let measured = String(decoding: drain(report[0]), as: UTF8.self).split(separator: " ").compactMap { Double($0) }
        close(report[0])
        var waitStatus: Int32 = 0
        while waitpid(status, &waitStatus, 0) < 0 && errno == EINTR {}
        guard measured.count == 3 else { throw BenchFailure("the measuring child reported nothing") }
        return Outcome(milliseconds: measured[0], peakMegabytes: measured[1] / 1024, status: Int32(measured[2]),
                       output: String(decoding: output, as: UTF8.self))
    }

    /// `qiktionary-bench --measure-child PROGRAM ARGS...`: runs the program and writes
    /// "<milliseconds> <peak RSS in KiB> <exit status>" to descriptor 3. Linux starts a child's
    /// peak at its parent's size when it is spawned, so the program must be spawned by a process
    /// as small as this one, not by the benchmark that holds thousands of games in memory.
    static func measureChild(_ arguments: [String]) -> Never {
        guard let program = arguments.first else { exit(64) }
        let start = DispatchTime.now().uptimeNanoseconds
        guard let pid = try? spawn(program, Array(arguments.dropFirst()), stdin: 0, stdout: 1, extra: nil, closing: [3]) else { exit(70) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let line = "\(elapsed) \(usage.ru_maxrss) \(exitStatus)"
        _ = line.withCString { write(3, $0, strlen($0)) }
        exit(0)
    }

    private static func spawn(_ path: String, _ arguments: [String], stdin: Int32, stdout: Int32, extra: Int32?, closing: [Int32]) throws -> pid_t {
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        var descriptors: [(from: Int32, to: Int32)] = [(stdin, 0), (stdout, 1), (stdout, 2)]
        if let extra { descriptors.append((extra, 3)) }
        do {
            return try Spawn.start(path, arguments, environment: environment, descriptors: descriptors, closing: closing)
        } catch {
            throw BenchFailure("\(error)")
        }
    }

    private static func drain(_ descriptor: Int32) -> [UInt8] {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { break }
            output += buffer[..<got]
        }
        return output
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
