import Glibc
import Testing
@testable import LayerKitCore

/// S6.3, S7.6: the order of a shared 3D space's layers, cut where they cross.
@Suite struct DepthSortTests {
    /// A square of side 2 in the plane through the origin, turned about y
    /// by `angle` (x leans into z), at height `y0`.
    func card(_ angle: Double, x0: Double = 0, y0: Double = 0) -> [SIMD3<Double>] {
        let c = cos(angle), s = sin(angle)
        return [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { (x, y) in
            SIMD3(x0 + x * c, y0 + y, x * s)
        }
    }

    @Test func layersThatDoNotCrossAreNotCutS6_3() {
        // Parallel planes, then a cube's faces (meeting only at edges).
        let flat = DepthSort.pieces([card(0).map { $0 + SIMD3(0, 0, -5) }, card(0), card(0).map { $0 + SIMD3(0, 0, 5) }])
        #expect(flat == [0, 1, 2].map { DepthSort.Piece(index: $0, clips: []) })
        let front = card(0).map { $0 + SIMD3(0, 0, 1) }
        let side = [SIMD3(1.0, -1, -1), SIMD3(1, -1, 1), SIMD3(1, 1, 1), SIMD3(1, 1, -1)]
        let cube = DepthSort.pieces([side, front])
        #expect(cube.allSatisfy { $0.clips.isEmpty })
        #expect(cube.map(\.index).sorted() == [0, 1])
    }

    @Test func nearerLayerIsDrawnLastWhateverTheGivenOrderS6_3() {
        // Two overlapping parallel cards given near first: the far one comes first.
        let near = card(0).map { $0 + SIMD3(0.5, 0, 3) }, far = card(0)
        #expect(DepthSort.pieces([near, far]).map(\.index) == [1, 0])
    }

    @Test func crossingLayersAreCutAlongTheirMeetingS7_6() throws {
        // Turned by +40° and -40° about y: they meet along x = 0. For x > 0
        // the +40° card is nearer (z = x sin 40° > 0), for x < 0 the other.
        let a = card(40 * .pi / 180), b = card(-40 * .pi / 180)
        let pieces = DepthSort.pieces([a, b])
        #expect(pieces.count == 3)
        #expect(pieces.filter { $0.index == 1 }.count == 2)
        #expect(pieces.allSatisfy { $0.index == 0 ? $0.clips.isEmpty : $0.clips.count == 1 })
        // b's pieces: the one kept on the far side of a's plane comes
        // before a, the one on the near side after it.
        let first = try #require(pieces.first), last = try #require(pieces.last)
        #expect(first.index == 1 && last.index == 1 && pieces[1].index == 0)
        // Half-spaces in projected space: b's left half (x < 0) is nearer.
        let leftOfB = SIMD3(-0.5 * cos(40 * .pi / 180), 0, 0.5 * sin(40 * .pi / 180))
        #expect(last.clips[0].distance(leftOfB) > 0)
        #expect(first.clips[0].distance(leftOfB) < 0)
    }

    @Test func aLayerPartlyBehindTheEyeKeepsTheGivenOrderUncutS6_3() {
        let a = card(40 * .pi / 180), b = card(-40 * .pi / 180)
        #expect(DepthSort.pieces([a, nil, b]) == [0, 1, 2].map { DepthSort.Piece(index: $0, clips: []) })
    }

    @Test func coplanarLayersKeepTheGivenOrderS6_3() {
        let a = card(0), b = card(0, x0: 0.5), c = card(0, x0: 1)
        #expect(DepthSort.pieces([a, b, c]).map(\.index) == [0, 1, 2])
    }

    @Test func aLayerWithNoAreaIsDrawnInOrder() {
        let line = [SIMD3(0.0, 0, 0), SIMD3(1, 0, 0), SIMD3(1, 0, 0), SIMD3(0, 0, 0)]
        #expect(DepthSort.pieces([line, card(0)]).map(\.index) == [0, 1])
    }

    @Test func manyCrossingLayersStayBoundedS8_1() {
        // 3,000 cards turned every way through one point: every pair
        // crosses. The cuts stop at a budget (each layer still drawn, at
        // most 2n + 256 extra pieces) and the recursion stays shallow.
        var rng = SplitMix(state: 11)
        var quads: [[SIMD3<Double>]?] = []
        for _ in 0..<3000 {
            let turned = card(rng.uniform(-1.5, 1.5), x0: rng.uniform(-0.2, 0.2), y0: rng.uniform(-0.2, 0.2))
            let t = rng.uniform(-1.5, 1.5)
            quads.append(turned.map { SIMD3($0.x, $0.y * cos(t) - $0.z * sin(t), $0.y * sin(t) + $0.z * cos(t)) })
        }
        let pieces = DepthSort.pieces(quads)
        #expect(Set(pieces.map(\.index)).count == 3000)
        #expect(pieces.count <= 3000 + 2 * 3000 + 256)
        #expect(pieces.count > 3000)
    }
}
