// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "LaunchAd",
    products: [
        .executable(name: "launchad", targets: ["launchad"]),
        .library(name: "LaunchAdCore", targets: ["LaunchAdCore"]),
        .library(name: "LaunchAdMedia", targets: ["LaunchAdMedia"]),
        .library(name: "LaunchAdPlayer", targets: ["LaunchAdPlayer"]),
        .library(name: "LaunchAdDelivery", targets: ["LaunchAdDelivery"]),
        .library(name: "LaunchAdEngine", targets: ["LaunchAdEngine"]),
        // The embedding API for Swift applications: a launch ad in the application's own window.
        .library(name: "LaunchAdKit", targets: ["LaunchAdKit"]),
        // The embedding API for C (and anything with a C FFI): liblaunchad.so, launchad.h.
        // Built as libLaunchAdEmbed.so (the executable has the name launchad); its soname, and the
        // name it is installed and linked as, is liblaunchad.so.0 (scripts/build-examples.sh, package.sh).
        .library(name: "LaunchAdEmbed", type: .dynamic, targets: ["LaunchAdC"]),
    ],
    targets: [
        // FFmpeg, SDL2, libcurl and libsodium: headers only. Their shims open each library on first
        // use (Sources/CLazyLoad/lazy_load.h), so nothing here links them, not even through
        // pkg-config, whose --libs would. The headers are in the default search path once
        // Debian's libavformat-dev, libavcodec-dev, libavutil-dev, libswscale-dev,
        // libswresample-dev, libavfilter-dev, libsdl2-dev, libsdl2-ttf-dev, libcurl4-openssl-dev
        // and libsodium-dev are installed (scripts/setup.sh).
        .systemLibrary(name: "CLazyLoad"),
        .systemLibrary(name: "CFFmpeg"),
        .systemLibrary(name: "CSDL2"),
        .systemLibrary(name: "CCurl"),
        // OpenGL's types and the functions LaunchAd draws with: a table filled from a host
        // application's get_proc_address (launchad_attach_gl); no GL library linked or opened.
        .systemLibrary(name: "CGL"),
        // Manifest signatures (minisign's Ed25519 and BLAKE2b), for --trust-key.
        .systemLibrary(name: "CSodium"),
        // A look at a Wayland compositor before SDL connects (libwayland-dev comes with libsdl2-dev).
        .systemLibrary(name: "CWayland", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
        // Decisions and data only: no C, no sockets, no locks, no threads; testable without a
        // display, a codec or a network.
        .target(name: "LaunchAdCore"),
        // FFmpeg behind Swift values: no FFmpeg type in its public API.
        .target(name: "LaunchAdMedia", dependencies: ["CLazyLoad", "CFFmpeg", "LaunchAdCore"]),
        // The window, the renderer, the audio device and the playback engine.
        .target(
            name: "LaunchAdPlayer", dependencies: ["CLazyLoad", "CSDL2", "CWayland", "CGL", "LaunchAdMedia", "LaunchAdCore"],
            // The test seam LAUNCHAD_TEST_BLOCK_PLAYER is read by debug builds (the tests') only.
            swiftSettings: [.define("LAUNCHAD_TEST_SEAMS", .when(configuration: .debug))]),
        // The outside world: HTTP (libcurl), the cache store and its lock, prefetch, background
        // refresh, manifest signatures (libsodium).
        .target(
            name: "LaunchAdDelivery", dependencies: ["CLazyLoad", "CCurl", "CSodium", "LaunchAdMedia", "LaunchAdCore"],
            // The test seam LAUNCHAD_TEST_PUBLIC_ADDRESSES is read by debug builds (the tests') only.
            swiftSettings: [.define("LAUNCHAD_TEST_SEAMS", .when(configuration: .debug))]),
        // The run, below both front ends: play a file, URL or VAST tag, a manifest launch with its
        // cache and refresh, beacons and records; its options and their parsers. Nothing of the
        // process (signals, stdout, the app, exit codes): the front ends give it a RunContext.
        .target(name: "LaunchAdEngine", dependencies: ["LaunchAdCore", "LaunchAdMedia", "LaunchAdPlayer", "LaunchAdDelivery"]),
        // The command line: subcommands, help, and what the process owns (signals, exit codes, the app).
        .target(
            name: "LaunchAdCLI", dependencies: ["LaunchAdEngine", "LaunchAdCore", "LaunchAdMedia", "LaunchAdPlayer", "LaunchAdDelivery"]),
        // The embedding API: the engine's runs shown in an application's window, driven by its loop.
        .target(name: "LaunchAdKit", dependencies: ["LaunchAdEngine", "LaunchAdCore", "LaunchAdPlayer", "LaunchAdMedia", "LaunchAdDelivery"]),
        // launchad.h, compiled on its own; the C API's implementation reads its types from it.
        .target(name: "CLaunchAd"),
        .target(
            name: "LaunchAdC", dependencies: ["CLaunchAd", "LaunchAdKit", "LaunchAdPlayer", "LaunchAdCore"],
            exclude: ["launchad.map"],
            linkerSettings: [
                // The soname and the exported symbols (launchad_*, versioned LAUNCHAD_0).
                .unsafeFlags(["-Xlinker", "-soname=liblaunchad.so.0", "-Xlinker", "--version-script=Sources/LaunchAdC/launchad.map"])
            ]),
        // A constructor that starts loading FFmpeg before main for `play` and `launch`.
        .target(name: "CEarlyLoad", path: "Sources/CEarlyLoad"),
        .executableTarget(name: "launchad", dependencies: ["LaunchAdCLI", "LaunchAdPlayer", "LaunchAdCore", "CEarlyLoad"]),
        // The Swift API's example host (scripts/build-examples.sh copies it to .build/examples).
        .executableTarget(
            name: "launchad-swift-host", dependencies: ["LaunchAdKit", "LaunchAdPlayer", "LaunchAdCore"], path: "examples/swift-host"),
        // Xlib for the tests alone: they read their Xvfb's screen back (XGetImage).
        .systemLibrary(name: "CXlib"),
        // Fixture making and binary running shared by the test targets.
        .target(name: "LaunchAdTestSupport", dependencies: ["LaunchAdCore", "CXlib"], path: "Sources/LaunchAdTestSupport"),
        .testTarget(name: "LaunchAdCoreTests", dependencies: ["LaunchAdTestSupport", "LaunchAdCore"],
                    // Caption files read from the source tree at test time (Fixtures.repoRoot), not bundled.
                    exclude: ["Corpus"]),
        .testTarget(name: "LaunchAdMediaTests", dependencies: ["LaunchAdTestSupport", "LaunchAdMedia", "LaunchAdCore", "CFFmpeg"]),
        .testTarget(name: "LaunchAdPlayerTests", dependencies: ["LaunchAdTestSupport", "LaunchAdPlayer", "LaunchAdMedia", "LaunchAdCore", "CSDL2", "LaunchAdDelivery"]),
        .testTarget(
            name: "LaunchAdKitTests",
            dependencies: [
                "LaunchAdTestSupport", "LaunchAdKit", "LaunchAdEngine", "LaunchAdCLI", "LaunchAdPlayer", "LaunchAdCore",
                // A host's X11 window made and destroyed in-process (X11AttachTests).
                "CXlib",
                // Built with the tests: the examples' library, the Swift host and the binary they are compared with.
                "LaunchAdC", "launchad-swift-host", "launchad"
            ],
            // C hosts of the tests' own, built at test time against the library (HostProcessTests).
            exclude: ["Hosts"]),
        .testTarget(name: "LaunchAdDeliveryTests", dependencies: ["LaunchAdTestSupport", "LaunchAdDelivery", "LaunchAdCore"]),
        .testTarget(name: "LaunchAdCLITests", dependencies: ["LaunchAdTestSupport", "LaunchAdCLI", "LaunchAdEngine", "LaunchAdDelivery", "LaunchAdPlayer", "LaunchAdMedia", "LaunchAdCore", "launchad"],
                    // Tag files read from the source tree at test time (Fixtures.repoRoot), not bundled;
                    // the test window managers (python3-xlib) run from there too.
                    exclude: ["Corpus", "WindowManagers"]),
    ],
    swiftLanguageModes: [.v6]
)
