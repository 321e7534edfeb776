// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "qiktionary",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "qiktionary", targets: ["qiktionary"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Ed25519 signatures of the files a machine writes (docs/trust.md).
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // Rules, feedback, the game state machine, notepad, scoring, statistics. No I/O.
        .target(name: "QiktionaryCore", dependencies: ["TextSafety"]),
        // The dictionary, the word packs and the daily schedule, shipped as files inside the top-level Resources/.
        .target(
            name: "QiktionaryResources",
            dependencies: ["QiktionaryCore"],
            path: "Resources",
            exclude: ["dictionary/SCOWL-NOTICE.txt", "dictionary/README.md"],
            sources: ["QiktionaryResources.swift"],
            resources: [.copy("dictionary/words.txt"), .copy("dictionary/common.txt"), .copy("packs"), .copy("daily")]
        ),
        // Text made safe to print on one line: the messages that name what a file or folder holds.
        .target(name: "TextSafety"),
        // How the C allocator keeps memory: two heaps, and freed pages given back between the
        // batches of a long first sync.
        .target(name: "ProcessMemory"),
        // Small concurrency helpers: a value behind a lock, work started on a thread of its own.
        .target(name: "Concurrency"),
        // Starting a program with posix_spawn, for the benchmark and the tests that run the real
        // binaries (Foundation's Process can crash on this toolchain).
        .target(name: "Spawn"),
        // SQLite through GRDB: schema, pack import, games, guesses, bookmarks.
        .target(
            name: "Storage",
            dependencies: ["QiktionaryCore", "TextSafety", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        // Line mode for scripts and screen readers, and the JSON shapes every command prints.
        .target(name: "PlainMode", dependencies: ["QiktionaryCore", "App", "TextSafety"]),
        // Cells, rectangles, a screen buffer, widgets, key events and the Terminal protocol.
        .target(name: "Screen", dependencies: ["TextSafety"]),
        // The full-screen interface as pure functions: update(state, message) and view(state).
        .target(name: "GameUI", dependencies: ["QiktionaryCore", "Screen"]),
        // ncursesw, wide characters; only TerminalUI imports it.
        .systemLibrary(name: "CNcurses", path: "Sources/CNcurses",
                       providers: [.apt(["libncurses-dev"])]),
        // The thin adapter that draws screen buffers with curses and reads keys.
        .target(name: "TerminalUI", dependencies: ["Screen", "CNcurses"]),
        // zlib compresses segments and snapshots (docs/cloud-format.md, format version 2).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // The CloudKit-like store kept in a shared folder. Knows nothing of the game.
        .target(name: "CloudStore", dependencies: ["CZlib", "TextSafety", "Concurrency", .product(name: "Crypto", package: "swift-crypto")]),
        // The sync engine: the game's data to and from the cloud store (SYNC.md's recipe).
        .target(name: "Sync", dependencies: ["QiktionaryCore", "Storage", "CloudStore", "ProcessMemory", "Concurrency", "TextSafety"]),
        // The application layer: the use cases every front end calls (start, guess, hint, daily and
        // challenge games, import and export, resets, recovery) and the wording of errors for a person.
        .target(name: "App", dependencies: ["QiktionaryCore", "Storage", "Sync", "CloudStore", "QiktionaryResources", "TextSafety", "Concurrency"]),
        // The sync engine under a deterministic simulation: machines, processes and faults, all
        // from a seed (docs/reliability.md). SimulationTests runs it in process, and so does
        // qiktionary-sim, built optimized, for thousands of seeds.
        .target(name: "Simulation", dependencies: [
            "Sync", "App", "Storage", "CloudStore", "QiktionaryCore", "QiktionaryResources", "Concurrency",
            .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),
        // The simulation's seeds shared out among worker processes (a test tool, not shipped).
        .executableTarget(name: "qiktionary-sim", dependencies: ["Simulation", "Spawn"], path: "Sources/SimulationRunner"),
        // A child process for the cloud store's multi-process and crash tests.
        .executableTarget(name: "cloudstore-probe", dependencies: ["CloudStore"], path: "Sources/CloudStoreProbe"),
        // Timings of the cloud store at 10,000 records (a benchmark, not a test).
        .executableTarget(name: "cloudstore-bench", dependencies: ["CloudStore"], path: "Sources/CloudStoreBench"),
        // Timings of sync at 1,000 to 100,000 finished games (a benchmark, not a test).
        .executableTarget(
            name: "qiktionary-bench",
            dependencies: ["QiktionaryCore", "Storage", "Sync", "CloudStore", "QiktionaryResources", "Spawn", "App", "Concurrency",
                           .product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/QiktionaryBench"
        ),
        // How good the coach is: plays every pack word with the hint as its only strategy,
        // against a random consistent guesser, and times hints and reviews (docs/coach.md).
        .executableTarget(
            name: "qiktionary-coach-bench",
            dependencies: ["QiktionaryCore", "QiktionaryResources"],
            path: "Sources/CoachBench"
        ),
        // The command line: argument parsing and wiring, kept thin.
        .executableTarget(
            name: "qiktionary",
            dependencies: [
                "QiktionaryCore", "App", "QiktionaryResources", "PlainMode", "GameUI", "TerminalUI", "Screen", "Sync",
                "ProcessMemory", "TextSafety", "Concurrency",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What the test targets share: one process runner, one temporary folder.
        .target(name: "TestSupport", dependencies: ["Spawn"], path: "Tests/TestSupport"),
        .testTarget(name: "QiktionaryCoreTests", dependencies: ["QiktionaryCore", "TextSafety"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "QiktionaryCore", "QiktionaryResources", "Sync", "TestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "PlainModeTests", dependencies: ["PlainMode", "Storage", "QiktionaryCore"]),
        // App's use cases against an in-memory store.
        .testTarget(name: "AppTests", dependencies: ["App", "Storage", "Sync", "CloudStore", "QiktionaryCore", "QiktionaryResources", "Concurrency"]),
        .testTarget(name: "ScreenTests", dependencies: ["Screen"]),
        .testTarget(name: "ProcessMemoryTests", dependencies: ["ProcessMemory"]),
        .testTarget(name: "GameUITests", dependencies: ["GameUI", "Screen", "QiktionaryCore"]),
        .testTarget(name: "SyncTests", dependencies: ["Sync", "App", "Storage", "CloudStore", "QiktionaryCore", "QiktionaryResources", "TextSafety", "Concurrency", "TestSupport"]),
        // Seeded generated bad input against every way in: plain mode, arguments, pack and cloud files.
        .testTarget(name: "FuzzTests", dependencies: [
            "qiktionary", "App", "PlainMode", "Storage", "QiktionaryCore", "QiktionaryResources", "CloudStore", "Sync", "TestSupport",
        ]),
        // A deterministic simulation of sync (machines, processes, faults, all from a seed) and the merges' properties.
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "CloudStore", "QiktionaryCore", "Storage", "TestSupport"]),
        .testTarget(name: "CloudStoreTests", dependencies: ["CloudStore", "cloudstore-probe", "Concurrency", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "EndToEndTests", dependencies: ["qiktionary", "qiktionary-bench", "qiktionary-coach-bench", "QiktionaryCore", "CloudStore", "TestSupport"],
                    exclude: ["Fixtures"]),
    ]
)
