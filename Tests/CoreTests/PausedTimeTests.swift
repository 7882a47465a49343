import Testing
@testable import LayerKitCore

/// S4.2, S5.2: a layer whose time stands still (a speed of 0 on it, above it,
/// or on the animation itself: the pause recipe) shows the same frame for
/// ever, so its running animations ask for no more frames and the render
/// thread can sleep. Each scene's animation is active at the time built;
/// with every speed 1 the same scene asks for frames.
@Suite struct PausedTimeTests {
    enum Path { case basic, keyframe, transformSpace, preservesDepth }

    /// A 200x200 root; under it `parent` (speed `parentSpeed`, its local
    /// time standing at 5 when paused), under that the animated layer
    /// (speed `speed`) whose animation (speed `animationSpeed`) runs for 10 s
    /// of local time from 4. Returns whether a frame 1 s in animates.
    private func animates(path: Path, parentSpeed: Double = 1, speed: Double = 1,
                          animationSpeed: Double = 1) throws -> Bool {
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
        // Paused: local time = timeOffset = 5; running: local = (media - (now - 5 / speed)) * speed,
        // 5 at `now` (at speed 0.5 from now - 5 it was 3 a second in: not begun, waiting).
        try parent.set(LayerProperties.speed, parentSpeed)
        try parent.set(LayerProperties.beginTime, parentSpeed == 0 ? 0 : now - 5 / parentSpeed)
        try parent.set(LayerProperties.timeOffset, parentSpeed == 0 ? 5 : 0)
        let layer = makeLayer(frame: Rect(x: 10, y: 10, width: 50, height: 50))
        try layer.set(LayerProperties.backgroundColor, Color(r: 1, g: 0, b: 0, a: 1))
        try layer.set(LayerProperties.speed, speed)
        try layer.set(LayerProperties.timeOffset, speed == 0 ? 5 : 0)
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
        move.timing.speed = animationSpeed
        move.timing.timeOffset = animationSpeed == 0 ? 1 : 0
        try layer.addAnimation(move, forKey: "move")
        ModelLock.shared.withLock { Transaction.flush() }
        var builder = DisplayListBuilder()
        builder.buildCommitted(root: root, at: now + 1)
        #expect(builder.count > 0)
        return builder.animating
    }

    @Test(arguments: [Path.basic, .keyframe, .transformSpace, .preservesDepth])
    func standingTimeAsksForNoFramesS4_2(path: Path) throws {
        #expect(try animates(path: path))
        #expect(try animates(path: path, parentSpeed: 0.5))
        #expect(try !animates(path: path, parentSpeed: 0))
        #expect(try !animates(path: path, speed: 0))
        #expect(try !animates(path: path, animationSpeed: 0))
    }

    /// An emitter whose superlayer is paused 2 s after it began keeps its
    /// particles where they are.
    @Test func pausedEmitterAsksForNoFramesS4_2() throws {
        func scene(paused: Bool) throws -> (count: Int, animating: Bool) {
            let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 100))
            let parent = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 100))
            let now = mediaTime()
            try parent.set(LayerProperties.beginTime, now - 5)   // local time 5 now
            let emitter = Layer(layerKind: .emitter)
            try emitter.setFrame(Rect(x: 0, y: 0, width: 200, height: 100))
            try emitter.set(EmitterProperties.emitterPosition, Point(x: 20, y: 50))
            let cell = EmitterCell()
            cell.attributes.birthRate = 2
            cell.attributes.lifetime = 100
            cell.attributes.velocity = 10
            let pixels = [UInt8](repeating: 255, count: 4 * 4 * 4)
            cell.contents = try pixels.withUnsafeBytes {
                try Image(width: 4, height: 4, stride: 16, format: .rgba8, pixels: $0.baseAddress!)
            }
            try emitter.setEmitterCells([cell])
            try parent.addSublayer(emitter)
            try root.addSublayer(parent)
            ModelLock.shared.withLock { Transaction.flush() }   // it emits from local time 5 on
            if paused {
                try parent.set(LayerProperties.speed, 0)
                try parent.set(LayerProperties.beginTime, 0)
                try parent.set(LayerProperties.timeOffset, 7)      // standing 2 s after
                ModelLock.shared.withLock { Transaction.flush() }
            }
            var builder = DisplayListBuilder()
            builder.buildCommitted(root: root, at: now + 2)
            return (builder.count, builder.animating)
        }
        let running = try scene(paused: false), paused = try scene(paused: true)
        #expect(running.animating && running.count > 0)
        #expect(!paused.animating && paused.count > 0)   // its particles show, standing
    }

    /// A replicator that draws no instance 0 (none at all, or instance 0
    /// clear with instance 1 shown by an alpha offset), with or without
    /// preservesDepth, still notes its sublayer's running animation (S4.6):
    /// its start is noted once and it asks for frames, unless the
    /// replicator is paused. Without instance 0 nothing was noted: the
    /// animation never started, and a frame asked for no next one.
    @Test(arguments: [false, true])
    func undrawnInstanceZeroNotesItsSublayersS4_6(preservesDepth: Bool) throws {
        func scene(count: Double, clear: Bool, paused: Bool) throws -> (starts: Int, animating: Bool) {
            let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 200))
            let replicator = Layer(layerKind: .replicator)
            try replicator.setFrame(Rect(x: 0, y: 0, width: 200, height: 200))
            try replicator.set(ReplicatorProperties.preservesDepth, preservesDepth)
            try replicator.set(ReplicatorProperties.instanceCount, count)
            try replicator.set(ReplicatorProperties.instanceTransform, Transform3D.translation(60, 0, 0))
            if clear {
                try replicator.set(ReplicatorProperties.instanceColor, Color(r: 1, g: 1, b: 1, a: 0))
                try replicator.set(ReplicatorProperties.instanceAlphaOffset, 1)
            }
            let now = mediaTime()
            // Local time 5 at `now`, standing there when paused.
            try replicator.set(LayerProperties.speed, paused ? 0 : 1)
            try replicator.set(LayerProperties.beginTime, paused ? 0 : now - 5)
            try replicator.set(LayerProperties.timeOffset, paused ? 5 : 0)
            let layer = makeLayer(frame: Rect(x: 10, y: 10, width: 50, height: 50))
            try layer.set(LayerProperties.backgroundColor, Color(r: 1, g: 0, b: 0, a: 1))
            try replicator.addSublayer(layer)
            try root.addSublayer(replicator)
            let fade = Animation(kind: .basic, keyPath: "opacity")
            (fade.fromValue, fade.toValue) = (.number(0), .number(1))
            fade.timing.beginTime = 4
            fade.timing.duration = 10
            try layer.addAnimation(fade, forKey: "fade")
            ModelLock.shared.withLock { Transaction.flush() }
            var builder = DisplayListBuilder()
            var events: [AnimationEvaluator.Event] = []
            RenderTree.shared.withLock {
                builder.build(root: RenderTree.shared.node(root.id), at: now + 1, events: &events)
            }
            let starts = events.filter { if case .started = $0 { true } else { false } }.count
            return (starts, builder.animating)
        }
        for (count, clear) in [(0.0, false), (1, true), (2, true), (2, false)] {
            let running = try scene(count: count, clear: clear, paused: false)
            #expect(running.starts == 1 && running.animating, "count \(count), clear \(clear): \(running)")
            let paused = try scene(count: count, clear: clear, paused: true)
            #expect(paused.starts == 1 && !paused.animating, "paused, count \(count), clear \(clear): \(paused)")
        }
    }
}
