// swift-tools-version:6.0
// LayerKit: the Swift core behind a C ABI, and the render backend plugins.
//
// liblayerkit.so exports only lk_* (linker version script) under the SONAME
// liblayerkit.so.0. Release builds link the Swift runtime statically:
// `swift build -c release -Xswiftc -static-stdlib` (the Makefile does this).
import PackageDescription

let root = Context.packageDirectory

let package = Package(
    name: "LayerKit",
    products: [
        .library(name: "layerkit", type: .dynamic, targets: ["LayerKitCAPI"]),
        .library(name: "layerkit-software", type: .dynamic, targets: ["LayerKitSoftware"]),
        .library(name: "layerkit-gles", type: .dynamic, targets: ["LayerKitGLES"]),
        .executable(name: "lk-info", targets: ["LKInfo"]),
        .library(name: "layerkit-drm", type: .dynamic, targets: ["LayerKitDRM"]),
        .executable(name: "layerkit-bench-displaylist", targets: ["BenchDisplayList"]),
        .executable(name: "layerkit-bench-animation", targets: ["BenchAnimation"]),
        .executable(name: "layerkit-bench-emitter", targets: ["BenchEmitter"]),
        .executable(name: "layerkit-bench-rasterize", targets: ["BenchRasterize"]),
    ],
    targets: [
        // The public headers (include/layerkit) as a Clang module for Swift.
        .target(name: "CLayerKit", path: "Sources/CLayerKitHeaders"),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng"),
        .target(name: "CSupport", path: "Sources/CSupport"),
        // cairo and Pango (fontconfig, FreeType, HarfBuzz, fribidi) for what layers draw.
        .systemLibrary(name: "CPangoCairo", path: "Sources/CPangoCairo", pkgConfig: "pangocairo"),
        .target(name: "CContent", dependencies: ["CPangoCairo", "CPNG"], path: "Sources/CContent",
                cSettings: [.unsafeFlags(["-O2"])]),
        .target(
            name: "LayerKitCore",
            dependencies: ["CLayerKit", "CPNG", "CSupport", "CContent"],
            path: "Sources/Core",
            // The render side reads layer state in tight loops; dynamic
            // exclusivity checks on class properties cost more than the work.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))],
            linkerSettings: [.linkedLibrary("dl")]
        ),
        .target(
            name: "LayerKitCAPI",
            dependencies: ["LayerKitCore", "CLayerKit"],
            path: "Sources/CAPI",
            exclude: ["layerkit.map"],
            linkerSettings: [.unsafeFlags([
                "-Xlinker", "--version-script=\(root)/Sources/CAPI/layerkit.map",
                "-Xlinker", "-soname=liblayerkit.so.0",
            ])]
        ),
        .systemLibrary(name: "CPixman", path: "Plugins/CPixman", pkgConfig: "pixman-1"),
        .target(
            name: "LayerKitSoftware",
            dependencies: ["CPixman"],
            path: "Plugins/Software",
            publicHeadersPath: "public",
            cSettings: [.headerSearchPath("../../include"), .unsafeFlags(["-O2", "-Wall", "-Wextra"])],
            linkerSettings: [.linkedLibrary("m"), .unsafeFlags([
                "-Xlinker", "--version-script=\(root)/Plugins/plugin.map",
            ])]
        ),
        // lk-info: the backends found, why any was rejected, what each reports.
        .executableTarget(
            name: "LKInfo",
            dependencies: ["LayerKitCore", "CLayerKit"],
            path: "Sources/LKInfo"
        ),
        // The OpenGL ES renderer shared by the GPU backends (gles, drm): plain C,
        // draws a display list into an FBO of the current context.
        .target(
            name: "LayerKitGLESRenderer",
            path: "Plugins/GLESRenderer",
            publicHeadersPath: "include",
            cSettings: [.headerSearchPath("../../include"), .unsafeFlags(["-O2", "-Wall", "-Wextra"])],
            linkerSettings: [.linkedLibrary("GLESv2"), .linkedLibrary("m")]
        ),
        // The headless EGL backend around it.
        .target(
            name: "LayerKitGLES",
            dependencies: ["LayerKitGLESRenderer"],
            path: "Plugins/GLES",
            publicHeadersPath: "public",
            cSettings: [.headerSearchPath("../../include"), .unsafeFlags(["-O2", "-Wall", "-Wextra"])],
            linkerSettings: [.linkedLibrary("EGL"), .linkedLibrary("GLESv2"), .linkedLibrary("m"),
                             .linkedLibrary("pthread"), .unsafeFlags([
                "-Xlinker", "--version-script=\(root)/Plugins/plugin.map",
            ])]
        ),
        .systemLibrary(name: "CDRM", path: "Plugins/CDRM", pkgConfig: "libdrm"),
        // The DRM/KMS backend: GBM + EGL + the shared GLES renderer, else dumb
        // buffers drawn by the software renderer, whose sources it compiles in
        // (Plugins/DRM/drm_software_*.c include them).
        .target(
            name: "LayerKitDRM",
            dependencies: ["CPixman", "CDRM", "LayerKitGLESRenderer"],
            path: "Plugins/DRM",
            publicHeadersPath: "public",
            cSettings: [.headerSearchPath("../../include"), .unsafeFlags(["-O2", "-Wall", "-Wextra"])],
            linkerSettings: [.linkedLibrary("gbm"), .linkedLibrary("EGL"), .linkedLibrary("GLESv2"),
                             .linkedLibrary("m"), .linkedLibrary("pthread"), .unsafeFlags([
                "-Xlinker", "--version-script=\(root)/Plugins/plugin.map",
            ])]
        ),
        .executableTarget(
            name: "BenchDisplayList",
            dependencies: ["LayerKitCore", "CSupport"],
            path: "Benchmarks/DisplayList"
        ),
        .executableTarget(
            name: "BenchAnimation",
            dependencies: ["LayerKitCore", "CSupport"],
            path: "Benchmarks/Animation"
        ),
        .executableTarget(
            name: "BenchEmitter",
            dependencies: ["LayerKitCore"],
            path: "Benchmarks/Emitter"
        ),
        .executableTarget(
            name: "BenchRasterize",
            dependencies: ["LayerKitCore", "CPangoCairo"],
            path: "Benchmarks/Rasterize"
        ),
        .testTarget(
            name: "CoreTests",
            dependencies: ["LayerKitCore"],
            path: "Tests/CoreTests"
        ),
    ]
)
