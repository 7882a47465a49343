import Testing
@testable import LayerKitCore

/// S5.2, S4.2, S4.4: an animation that has yet to begin shows nothing, or
/// its backwards fill's start value, until its beginTime: a static frame.
/// It asks for one frame, when it begins (its layer's local beginTime made
/// a media time through the speeds of its layer and those above), not for
/// a frame at every refresh until then; the render thread sleeps meanwhile.
@Suite struct WaitingAnimationTests {
    enum Path { case basic, keyframe, transformSpace, preservesDepth }

    /// A 200x200 root; under it `parent` (speed `parentSpeed`, its local
    /// time 0 at media time `now`), under that the animated layer whose
    /// animation begins at local time 4 for 10 s. Returns the builder's
    /// nextFrameTime less `now` for a frame `at` s after `now`.
    private func nextFrame(path: Path, parentSpeed: Double, fill: FillMode = .removed, at: Double = 1) throws -> Double {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let kind: LayerKind = switch path {
        case .transformSpace: .transform
        case .preservesDepth: .replicator
        default: .plain
        }
        let parent = Layer(layerKind: kind)
        try parent.setFrame(Rect(x: 0, y: 0, width: 200, height: 200))
        if path == .preservesDepth {
            try parent.set(ReplicatorProperties.preservesDepth, true)
            try parent.set(ReplicatorProperties.instanceCount, 2)
        }
        let now = mediaTime()
        try parent.set(LayerProperties.speed, parentSpeed)
        try parent.set(LayerProperties.beginTime, now)
        let layer = makeLayer(frame: Rect(x: 10, y: 10, width: 50, height: 50))
        try layer.set(LayerProperties.backgroundColor, Color(r: 1, g: 0, b: 0, a: 1))
        try parent.addSublayer(layer)
        try root.addSublayer(parent)
        let move: Animation
        if path == .keyframe {
            move = Animation(kind: .keyframe, keyPath: "position")
            move.keyframes.values = [.point(Point(x: 0, y: 0)), .point(Point(x: 100, y: 50)), .point(Point(x: 0, y: 90))]
        } else {
            move = Animation(kind: .basic, keyPath: "position")
            (move.fromValue, move.toValue) = (.point(Point(x: 0, y: 0)), .point(Point(x: 100, y: 50)))
        }
        move.timing.beginTime = 4
        move.timing.duration = 10
        move.timing.fillMode = fill
        try layer.addAnimation(move, forKey: "move")
        ModelLock.shared.withLock { Transaction.flush() }
        var builder = DisplayListBuilder()
        builder.buildCommitted(root: root, at: now + at)
        #expect(builder.count > 0)
        return builder.nextFrameTime - now
    }

    @Test(arguments: [Path.basic, .keyframe, .transformSpace, .preservesDepth])
    func waitsUntilItBeginsS5_2(path: Path) throws {
        // local time 4 is media time now + 4 / speed
        #expect(abs(try nextFrame(path: path, parentSpeed: 1) - 4) < 1e-6)
        #expect(abs(try nextFrame(path: path, parentSpeed: 2) - 2) < 1e-6)
        #expect(abs(try nextFrame(path: path, parentSpeed: 0.5) - 8) < 1e-6)
        #expect(abs(try nextFrame(path: path, parentSpeed: 1, fill: .backwards) - 4) < 1e-6)
        // time standing still, or running away from the beginTime: never
        #expect(try nextFrame(path: path, parentSpeed: 0) == .infinity)
        #expect(try nextFrame(path: path, parentSpeed: -1) == .infinity)
        // begun: a frame at every refresh
        #expect(try nextFrame(path: path, parentSpeed: 2, at: 2.5) == -.infinity)
        // over (no fill): none
        #expect(try nextFrame(path: path, parentSpeed: 1, at: 15) == .infinity)
    }
}
