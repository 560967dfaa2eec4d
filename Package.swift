// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Drain",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "drain", targets: ["drain"]),
        .library(name: "DrainTrace", targets: ["DrainTrace"]),
        .library(name: "DrainImport", targets: ["DrainImport"]),
        .library(name: "DrainModel", targets: ["DrainModel"]),
        .library(name: "DrainAggregate", targets: ["DrainAggregate"]),
        .library(name: "DrainRules", targets: ["DrainRules"]),
        .library(name: "DrainReport", targets: ["DrainReport"]),
        .library(name: "DrainRender", targets: ["DrainRender"]),
        .library(name: "DrainPipeline", targets: ["DrainPipeline"]),
        .library(name: "DrainGate", targets: ["DrainGate"]),
        .library(name: "DrainCompare", targets: ["DrainCompare"]),
        .library(name: "DrainProbe", targets: ["DrainProbe"]),
        .library(name: "DrainTraceWriter", targets: ["DrainTraceWriter"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-algorithms", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit", from: "2.17.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CPcap",
            pkgConfig: "libpcap",
            providers: [.apt(["libpcap-dev"])]
        ),
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(name: "DrainTrace", dependencies: ["DrainTraceWriter", .product(name: "Algorithms", package: "swift-algorithms")]),
        .target(name: "DrainTraceWriter"),
        .target(name: "DrainProbe", dependencies: ["DrainTraceWriter"]),
        .target(
            name: "DrainImport",
            dependencies: [
                "DrainTrace", "DrainTraceWriter", "CPcap", "CZlib", "CMappedFile", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"), .product(name: "Algorithms", package: "swift-algorithms"),
            ]
        ),
        .target(name: "CRecordSupport"),
        // Guarded read-only file mappings: a capture that shrinks while mapped reads as zeros
        // past its new end instead of raising SIGBUS.
        .target(name: "CMappedFile"),
        .target(
            name: "DrainRecord", dependencies: ["DrainTrace", "DrainTraceWriter", "DrainImport", "CPcap", "CRecordSupport"]
        ),
        .target(name: "DrainYAML", dependencies: ["DrainTrace", "Yams"]),
        .target(
            name: "DrainModel",
            dependencies: ["DrainTrace", "DrainAggregate", "DrainYAML", "Yams", .product(name: "Algorithms", package: "swift-algorithms")]),
        // Kernels compiled for a wider instruction set function by function, called only when
        // the processor has it: Swift has no per-function target.
        .target(name: "CSIMDKernels"),
        .target(name: "DrainAggregate", dependencies: ["DrainTrace", "CSIMDKernels", .product(name: "Algorithms", package: "swift-algorithms")]),
        .target(name: "DrainReport", dependencies: ["DrainTrace"]),
        .target(name: "DrainRender", dependencies: ["DrainTrace", "DrainTraceWriter", "DrainReport"]),
        .target(
            name: "DrainRules", dependencies: ["DrainTrace", "DrainModel", "DrainReport", "DrainYAML", .product(name: "Algorithms", package: "swift-algorithms")]
        ),
        .target(
            name: "DrainPipeline",
            dependencies: [
                "DrainTrace", "DrainTraceWriter", "DrainImport", "DrainModel", "DrainAggregate", "DrainRules", "DrainReport", "CMalloc",
            ]
        ),
        .target(
            name: "DrainGate",
            dependencies: [
                "DrainTrace", "DrainImport", "DrainModel", "DrainReport", "DrainRender", "DrainRules", "DrainYAML", "DrainPipeline",
            ]
        ),
        .target(name: "DrainCompare", dependencies: ["DrainReport", "DrainRender"]),
        .target(
            name: "DrainHistory",
            dependencies: [
                "DrainReport", "DrainRender", "DrainGate", "DrainPipeline", "CZlib",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "drain",
            dependencies: [
                "DrainTrace", "DrainImport", "DrainModel", "DrainReport", "DrainRender", "DrainPipeline", "DrainGate", "DrainCompare", "DrainHistory",
                "DrainRecord",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [
                // SwiftPM exports every symbol of an executable on Linux (47 k of drain's) for
                // backtraces through `dladdr`; the runtime's backtracer reads the symbol table
                // itself, and resolving the exports cost each run ~1.5 ms and ~1 MiB of
                // resident memory (docs/performance-captures.md, session 22).
                //
                // lld, with the functions a run reaches placed first (scripts/link-order.txt,
                // written by scripts/make-link-order) and relative relocations packed: a run
                // then maps a few MiB of drain's 33 MiB of code instead of pages scattered over
                // half of it, and no longer reads 3 MiB of relocation entries at start-up
                // (docs/performance.md, "Code layout").
                .unsafeFlags(
                    [
                        "-Xlinker", "--no-export-dynamic", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/scripts/link-order.txt",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ], .when(platforms: [.linux], configuration: .release))
            ]
        ),
        .executableTarget(
            name: "drain-bench",
            dependencies: ["DrainTrace", "DrainImport", "DrainAggregate", "DrainProbe", "DrainReport", "DrainRender"],
            path: "Sources/drain-bench"
        ),
        .executableTarget(name: "drain-probe-example", dependencies: ["DrainProbe"]),
        .target(
            name: "DrainTestSupport",
            dependencies: ["DrainTrace", "DrainReport", "CZlib"],
            path: "Tests/DrainTestSupport"
        ),
        // Tests that run the `drain` executable depend on it so that it is built first.
        .testTarget(name: "DrainTraceTests", dependencies: ["DrainTrace"]),
        // Fixtures/ holds inputs the tests read by path (the fuzzers' crash inputs).
        .testTarget(
            name: "DrainImportTests",
            dependencies: [
                "DrainImport", "DrainTrace", "DrainTraceWriter", "DrainModel", "CPcap", "DrainTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "DrainYAMLTests", dependencies: ["DrainYAML", "DrainTestSupport", .product(name: "Yams", package: "Yams")]),
        .testTarget(name: "DrainModelTests", dependencies: ["DrainModel", "DrainTrace", "DrainTestSupport"]),
        .testTarget(name: "DrainAggregateTests", dependencies: ["DrainAggregate", "DrainTrace"]),
        .testTarget(
            name: "DrainRulesTests", dependencies: ["DrainRules", "DrainModel", "DrainImport", "DrainReport", "DrainTrace", "DrainTestSupport"]
        ),
        .testTarget(name: "DrainReportTests", dependencies: ["DrainReport", "DrainRender", "DrainTestSupport"]),
        .testTarget(name: "DrainRenderTests", dependencies: ["DrainRender", "DrainReport", "DrainTrace", "DrainTestSupport"]),
        .testTarget(
            name: "DrainPipelineTests",
            dependencies: [
                "DrainPipeline", "DrainImport", "DrainModel", "DrainRules", "DrainRender", "DrainReport", "DrainTrace", "DrainTestSupport", "CMalloc",
                "drain",
            ]
        ),
        .testTarget(
            name: "DrainRecordTests", dependencies: ["DrainRecord", "DrainImport", "DrainTrace", "DrainTraceWriter", "DrainTestSupport", "drain"]
        ),
        .testTarget(name: "DrainGateTests", dependencies: ["DrainGate", "DrainImport", "DrainPipeline", "DrainReport", "DrainTrace", "DrainTestSupport"]),
        .testTarget(
            name: "DrainHistoryTests",
            dependencies: ["DrainHistory", "DrainGate", "DrainRender", "DrainReport", "DrainTestSupport", "drain"]
        ),
        .testTarget(name: "DrainCompareTests", dependencies: ["DrainCompare", "DrainRender", "DrainReport", "DrainTestSupport"]),
        .testTarget(name: "DrainTraceWriterTests", dependencies: ["DrainTraceWriter", "DrainTrace"]),
        .testTarget(name: "DrainProbeTests", dependencies: ["DrainProbe", "DrainImport", "DrainTrace", "DrainTestSupport"]),
    ]
)

// Release builds on Linux give each function a section of its own, so that the link of
// `drain` can order them (its linker settings above). They also reach the metadata of
// concrete generic types (a dictionary's storage for a key type of ours, a Codable container)
// through accessors that pass the conformances, not by mangled name: the runtime resolves a
// mangled name's conformances by scanning every conformance record of the binary (about
// 10,000) once per new pair, a few hundred microseconds each, and such scans were most of
// the fixed cost of a run beside the start-up (docs/performance.md, session 39).
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .unsafeFlags(
                ["-Xfrontend", "-function-sections", "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
                .when(platforms: [.linux], configuration: .release))
        ]
}
