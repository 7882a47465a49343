import Glibc
@testable import LayerKitCore

func near(_ a: Double, _ b: Double, _ eps: Double = 1e-9) -> Bool { abs(a - b) <= eps }
func near(_ a: Point, _ b: Point, _ eps: Double = 1e-9) -> Bool { near(a.x, b.x, eps) && near(a.y, b.y, eps) }
func near(_ a: Rect, _ b: Rect, _ eps: Double = 1e-9) -> Bool {
    near(a.origin, b.origin, eps) && near(a.size.width, b.size.width, eps) && near(a.size.height, b.size.height, eps)
}
func near(_ a: Transform3D, _ b: Transform3D, _ eps: Double = 1e-9) -> Bool {
    zip(a.elements, b.elements).allSatisfy { near($0, $1, eps) }
}

/// A deterministic generator for property-style tests.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53)
    }
}

func makeLayer(frame: Rect) -> Layer {
    let l = Layer()
    try! l.setFrame(frame)
    return l
}

/// Every combination of from, to and by a basic animation of a point can
/// have (S4.8), none set included.
let pointFromToByCombinations: [(Value?, Value?, Value?)] = [
    (.point(Point(x: 1, y: 2)), .point(Point(x: 11, y: 22)), nil),
    (.point(Point(x: 1, y: 2)), nil, .point(Point(x: 5, y: -5))),
    (nil, .point(Point(x: 11, y: 22)), .point(Point(x: 5, y: -5))),
    (.point(Point(x: 1, y: 2)), nil, nil),
    (nil, .point(Point(x: 11, y: 22)), nil),
    (nil, nil, .point(Point(x: 5, y: -5))),
    (nil, nil, nil),
]
