// Display list building and memory per layer, against the limits of the
// foundation issue: building the list for a static tree of 10,000 layers
// under 2 ms per frame on one core, and under 1 KiB per plain layer.
//
//   swift run -c release layerkit-bench-displaylist [--smoke]
import CSupport
import Glibc
import LayerKitCore

let smoke = CommandLine.arguments.contains("--smoke")

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func heapBytesInUse() -> Int { Int(layerkit_support_heap_bytes_in_use()) }

/// `x` with `digits` decimals (no Foundation here).
func fixed(_ x: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (x * scale).rounded() / scale
    var s = String(r)
    if let dot = s.firstIndex(of: ".") {
        let decimals = s.distance(from: dot, to: s.endIndex) - 1
        if decimals < digits { s += String(repeating: "0", count: digits - decimals) }
        if digits == 0 { s = String(s[..<dot]) }
    }
    return s
}

/// A 1920x1080 scene of `count` layers: 100 containers in a grid, each with
/// count/100 coloured, bordered, some rounded or rotated sublayers.
func makeScene(count: Int) throws -> Layer {
    let root = Layer()
    try root.setFrame(Rect(x: 0, y: 0, width: 1920, height: 1080))
    try root.set(LayerProperties.backgroundColor, Color(r: 0.1, g: 0.1, b: 0.12, a: 1))
    let perContainer = max(1, count / 100)
    for c in 0..<100 {
        let container = Layer()
        try container.setFrame(Rect(x: Double(c % 10) * 192, y: Double(c / 10) * 108, width: 192, height: 108))
        try root.addSublayer(container)
        for i in 0..<(perContainer - 1) {
            let l = Layer()
            try l.setFrame(Rect(x: Double(i % 16) * 12, y: Double(i / 16) * 12, width: 10, height: 10))
            try l.set(LayerProperties.backgroundColor, Color(r: Double(i % 7) / 7, g: 0.5, b: Double(c) / 100, a: 0.8))
            if i % 5 == 0 { try l.set(LayerProperties.cornerRadius, 3) }
            if i % 7 == 0 { try l.set(LayerProperties.transform, .rotation(0.3, 0, 0, 1)) }
            if i % 11 == 0 {
                try l.set(LayerProperties.borderWidth, 1)
            }
            try container.addSublayer(l)
        }
    }
    return root
}

func countLayers(_ l: Layer) -> Int { 1 + l.sublayers.reduce(0) { $0 + countLayers($1) } }

// 1. Display list for a static tree of 10,000 layers.
let scene = try makeScene(count: 10_000)
let layerCount = countLayers(scene)
// Committed once, then built from the render tree as the render side does.
ModelLock.shared.withLock { Transaction.flush() }
var builder = DisplayListBuilder()
let iterations = smoke ? 5 : 300
builder.buildCommitted(root: scene, at: 0) // warm up
var samples: [Double] = []
for i in 0..<iterations {
    let start = now()
    builder.buildCommitted(root: scene, at: Double(i) / 60)
    samples.append((now() - start) * 1000)
}
samples.sort()
let median = samples[samples.count / 2]
let p99 = samples[min(samples.count - 1, samples.count * 99 / 100)]
print("display list, static tree of \(layerCount) layers (\(builder.count) ops): median \(fixed(median, 3)) ms, p99 \(fixed(p99, 3)) ms per frame   [limit: 2 ms]  \(median < 2 ? "OK" : "OVER")")

// 2. Memory per plain layer.
let plainCount = smoke ? 1_000 : 100_000
let before = heapBytesInUse()
var layers: [Layer] = []
layers.reserveCapacity(plainCount)
let arrayBytes = heapBytesInUse() - before
// As a C program makes them: each handed out through the C API (registered).
for _ in 0..<plainCount {
    let l = Layer()
    HandleRegistry.shared.expose(l)
    layers.append(l)
}
let perLayer = Double(heapBytesInUse() - before - arrayBytes) / Double(plainCount)
print("memory per plain layer: \(fixed(perLayer, 0)) bytes (heap, incl. handle registry entry)   [limit: 1024 bytes]  \(perLayer < 1024 ? "OK" : "OVER")")
print("LayerState: \(MemoryLayout<LayerState>.size) bytes inline")
withExtendedLifetime(layers) {}
