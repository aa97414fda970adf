// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "LaunchAd",
    products: [
        .executable(name: "launchad", targets: ["launchad"]),
        .library(name: "LaunchAdCore", targets: ["LaunchAdCore"]),
        .library(name: "LaunchAdMedia", targets: ["LaunchAdMedia"]),
        .library(name: "LaunchAdPlayer", targets: ["LaunchAdPlayer"]),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev",
                              "libswscale-dev", "libswresample-dev", "libavfilter-dev"])]
        ),
        .systemLibrary(
            name: "CSDL2",
            pkgConfig: "sdl2",
            providers: [.apt(["libsdl2-dev", "libsdl2-ttf-dev"])]
        ),
        // Pure decisions: no C import, testable without a display or a codec.
        .target(name: "LaunchAdCore"),
        .target(name: "LaunchAdMedia", dependencies: ["CFFmpeg", "LaunchAdCore"]),
        .target(name: "LaunchAdPlayer", dependencies: ["CSDL2", "LaunchAdMedia", "LaunchAdCore"]),
        .target(name: "LaunchAdCLI", dependencies: ["LaunchAdCore", "LaunchAdMedia", "LaunchAdPlayer"]),
        .executableTarget(name: "launchad", dependencies: ["LaunchAdCLI"]),
        // Fixture making and binary running shared by the test targets.
        .target(name: "LaunchAdTestSupport", path: "Sources/LaunchAdTestSupport"),
        .testTarget(name: "LaunchAdCoreTests", dependencies: ["LaunchAdTestSupport", "LaunchAdCore"]),
        .testTarget(name: "LaunchAdMediaTests", dependencies: ["LaunchAdTestSupport", "LaunchAdMedia", "CFFmpeg"]),
        .testTarget(name: "LaunchAdPlayerTests", dependencies: ["LaunchAdTestSupport", "LaunchAdPlayer", "CSDL2"]),
        .testTarget(name: "LaunchAdCLITests", dependencies: ["LaunchAdTestSupport", "LaunchAdCLI", "launchad"]),
    ],
    swiftLanguageModes: [.v5]
)
