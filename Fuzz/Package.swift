// swift-tools-version: 6.1
// The libFuzzer harnesses (docs/fuzzing.md). A package of its own, depending on Drain by
// path, so that its instrumented build (`-sanitize=fuzzer,address`, in `.build-fuzz`) never
// touches the main build; `scripts/fuzz` builds and runs it.
import PackageDescription

let package = Package(
    name: "DrainFuzz",
    dependencies: [.package(name: "Drain", path: "..")],
    targets: [
        // The declaration of libFuzzer's driver, which `drain-fuzz`'s main calls.
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "drain-fuzz",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "DrainImport", package: "Drain"),
                .product(name: "DrainModel", package: "Drain"),
                .product(name: "DrainRules", package: "Drain"),
                .product(name: "DrainGate", package: "Drain"),
                .product(name: "DrainReport", package: "Drain"),
            ],
            // GNU gold, the default linker here, fails with an internal error on the
            // instrumented objects; lld, which comes with Swift, links them.
            linkerSettings: [.unsafeFlags(["-use-ld=lld"])]
        )
    ]
)
