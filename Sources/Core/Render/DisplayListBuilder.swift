import CSupport
import CLayerKit
import Glibc

/// Turns a layer tree into the backend's display list (S6.1): per layer,
/// back to front, shadow, background, contents, sublayers (clipped when
/// masksToBounds), border. Offscreen groups carry what needs a layer drawn
/// as one picture: group opacity, a mask's alpha, a shadow derived from the
/// layer's alpha. Hidden and fully transparent subtrees and culled back
/// faces produce nothing. The op buffer is reused frame to frame.
///
/// Here: the op buffer, the walk of the tree, groups and the limits. A
/// layer's own ops are in LayerDrawing.swift; special layers' in
/// ParticleDrawing, ReplicatorDrawing, PreservedDepth, TiledLayerDrawing
/// and TransformLayerSpace; transitions' in TransitionDrawing.
public struct DisplayListBuilder: ~Copyable {
    private var ops: UnsafeMutablePointer<lk_dl_op>
    private var capacity: Int
    public private(set) var count = 0
    /// The media time at which the last list's animations next want a
    /// frame: -infinity for the next refresh (one moves), the time the
    /// earliest one waiting to begin begins (what is drawn is static until
    /// then: the render thread sleeps until it), +infinity for none (until a
    /// commit changes things).
    public private(set) var nextFrameTime = Double.infinity
    /// Whether an animation in the last list moves: frames are wanted at once.
    public var animating: Bool { nextFrameTime == -.infinity }
    /// Whether the layer being visited has a standing local time: a speed of
    /// 0 on it or above it (paused, S4.2). Its animations then show the same
    /// frame for ever and ask for no more frames (the render thread sleeps).
    var timeFrozen = false
    /// How fast the visited layer's local time runs against media time: the
    /// product of the speeds on it and above it (S4.2), by which a local
    /// time at which an animation begins becomes a media time.
    var timeRate = 1.0
    /// The media time of the list being built.
    private(set) var frameTime = 0.0
    /// Layers whose kind content was rasterized (not reused) since this builder began.
    public internal(set) var rasterizations: UInt64 = 0
    /// A list has at most this many drawing ops (fills, images, borders,
    /// gradients), and a build does at most this much work (a layer
    /// visited, a particle listed, an op added): replicators nested in
    /// replicators multiply their instance counts (two of 10,000 made 10^8
    /// ops, 35 GB, and the allocation's failure aborted the program), and
    /// an emitter in a replicator is simulated once per instance. Past
    /// either the rest of the tree is left out of the frame (`truncated`).
    /// Far above real scenes: an emitter keeps at most 200,000 particles.
    public static let maximumDrawOps = 500_000
    public static let maximumWork = 4_000_000
    /// A shared 3D space (a transform layer's, a preservesDepth
    /// replicator's) gathers at most this many layers: its depth sort
    /// partitions them all, up to 64 times.
    public static let maximumSpaceItems = 100_000
    private var drawOps = 0
    private var work = 0
    /// The last build reached a limit above and left part of the tree out.
    public private(set) var truncated = false
    /// Builds that reached a limit since this builder began.
    public private(set) var truncations: UInt64 = 0
    /// Images named by the current list; kept alive until the next build.
    var images: [Image] = []
    /// Groups open while building (empty between builds).
    private var openGroups: [OpenGroup] = []
    /// The stops of the list's GRADIENT ops, reused frame to frame; an op's
    /// pointer is set when the list is complete (the buffer may move as it
    /// grows), from the offsets in gradientOps.
    private var stops: UnsafeMutablePointer<lk_dl_gradient_stop>
    private var stopCapacity: Int
    private var stopCount = 0
    private var gradientOps: [(op: Int, first: Int)] = []
    /// The product of the enclosing replicator instances' colours (S7.5),
    /// nil outside any: it multiplies every op drawn.
    var instanceTint: Color?
    /// A layer drawn without its sublayers (a preservesDepth replicator in a
    /// shared 3D space: its instances are drawn there, each on its own).
    var contentOnly: RenderNode?
    /// Spans of ops whose number can change from frame to frame: an
    /// emitter's particles (S7.4), a shared 3D space whose layers are cut
    /// into pieces where they cross (S6.3, S7.6). The damage tracker
    /// compares a span op by op while it keeps its ops' number and kinds,
    /// and takes it as a whole when they change. Outermost spans only: an
    /// emitter inside a space is part of the space's span.
    private(set) var variableRuns: [Range<Int>] = []
    private var variableRunDepth = 0
    /// The output's pixels, for what is visible (tiled layers); unbounded
    /// when the list has no fixed output.
    var viewport = ScreenBox.unbounded
    /// Tiles the last list needed and their stores lacked (S7.8): draw them
    /// (TileStore.draw) and build again to show them.
    var tileNeeds: [TileStore.Need] = []
    /// The tiles in tileNeeds, by store: each is needed once a frame (a
    /// tiled layer in a replicator is drawn once per instance), and at
    /// most maximumTilesPerFrame for one layer.
    var tilesNeeded: [ObjectIdentifier: Set<TileStore.Key>] = [:]
    /// This build's number on the tile stores' clock.
    var tileFrame: UInt64 = 0

    public init() {
        capacity = 256
        ops = .allocate(capacity: capacity)
        stopCapacity = 64
        stops = .allocate(capacity: stopCapacity)
    }

    deinit {
        ops.deallocate()
        stops.deallocate()
    }

    public var opsPointer: UnsafePointer<lk_dl_op> { UnsafePointer(ops) }

    /// Bytes per op in the list (what each particle adds to a frame's list).
    public static var bytesPerOp: Int { MemoryLayout<lk_dl_op>.stride }

    /// Builds the list for a model tree as it is, ignoring animations (a
    /// tree that was never committed: tests, snapshots).
    public mutating func build(root: Layer?) {
        build(root: root.map { RenderNode.snapshot(of: $0) }, at: 0, events: nil)
    }

    /// Builds the list for `root` as last committed, at media time `time`,
    /// animations applied, as the render side does (for tools and benchmarks).
    public mutating func buildCommitted(root: Layer, at time: Double) {
        RenderTree.shared.withLock { build(root: RenderTree.shared.node(root.id), at: time, events: nil) }
    }

    /// Builds the list for the committed tree under `root` at media time
    /// `time`, animations applied (S5); with `events`, notes which
    /// animations started or stopped. The render tree's lock is held.
    mutating func build(root: RenderNode?, at time: Double, events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?) {
        count = 0
        nextFrameTime = .infinity
        frameTime = time
        timeFrozen = false
        timeRate = 1
        images.removeAll(keepingCapacity: true)
        openGroups.removeAll(keepingCapacity: true)
        stopCount = 0
        gradientOps.removeAll(keepingCapacity: true)
        instanceTint = nil
        variableRuns.removeAll(keepingCapacity: true)
        variableRunDepth = 0
        tileNeeds.removeAll(keepingCapacity: true)
        tilesNeeded.removeAll(keepingCapacity: true)
        tileFrame = TileStore.clock.wrappingAdd(1, ordering: .relaxed).newValue
        drawOps = 0
        work = 0
        truncated = false
        guard let root else { return }
        visit(root, parent: Placement(world: .identity, sublayerTransform: nil, isRoot: true, clip: viewport),
              parentOpacity: 1, parentTime: time, events: events)
        for g in gradientOps { ops[g.op].gradient_stops = UnsafePointer(stops + g.first) }
        if truncated { truncations &+= 1 }
    }

    /// A space gathered `count` layers: at its limit, some were left out.
    mutating func noteSpaceLimit(_ count: Int) {
        if count >= DisplayListBuilder.maximumSpaceItems { truncated = true }
    }

    /// Counts `units` of work; false, the build truncated, past the limit.
    mutating func spend(_ units: Int) -> Bool {
        work += units
        if work > DisplayListBuilder.maximumWork { truncated = true }
        return !truncated
    }

    /// The images the current list names (alive until the next build).
    var currentImages: [Image] { images }

    /// Op i, for tests and tools.
    public func op(_ i: Int) -> lk_dl_op { ops[i] }

    /// Where a node lands: its transform to the output, from its superlayer's.
    struct Placement {
        let world: Transform3D
        /// The superlayer's sublayerTransform about its anchor; nil for identity.
        let sublayerTransform: Transform3D?
        let isRoot: Bool
        /// The output box the ancestors' masksToBounds and the viewport leave.
        let clip: ScreenBox
        /// The node's own map to the output, worked out already (a sublayer
        /// of a transform layer, placed in its 3D space).
        let fixedWorld: Transform3D?
        /// With fixedWorld: the node's unflattened map into that space's
        /// plane, and the plane's map to the output.
        let fixedDepth: DepthSpace?
        /// Which of the above are there, and whether world is a translation,
        /// worked out once per superlayer: a test of a 128-byte optional
        /// copied it, for every sublayer.
        let hasSublayerTransform: Bool, hasFixedWorld: Bool, worldIsTranslation: Bool

        init(world: Transform3D, sublayerTransform: Transform3D?, isRoot: Bool, clip: ScreenBox = .unbounded,
             fixedWorld: Transform3D? = nil, fixedDepth: DepthSpace? = nil) {
            self.world = world
            self.sublayerTransform = sublayerTransform
            self.isRoot = isRoot
            self.clip = clip
            self.fixedWorld = fixedWorld
            self.fixedDepth = fixedDepth
            hasSublayerTransform = sublayerTransform != nil
            hasFixedWorld = fixedWorld != nil
            worldIsTranslation = world.isTranslation
        }
    }

    /// Where a layer lies in 3D before it is flattened: its map into the
    /// plane of the nearest superlayer that flattens (unflattened, with that
    /// superlayer's sublayerTransform and so its perspective), and that
    /// plane's map to the output. `map.flattened` then `base` is the
    /// layer's world. Used where depth is kept inside a layer
    /// (preservesDepth, S7.4, S7.5).
    struct DepthSpace {
        var map: Transform3D
        var base: Transform3D

        /// The flattened map to the output of a plane placed by `local` in this space.
        func world(_ local: Transform3D) -> Transform3D { local.concatenating(map).flattened.concatenating(base) }
    }

    private static func depthSpace(of s: UnsafeMutablePointer<LayerState>, in parent: Placement) -> DepthSpace {
        if let fixed = parent.fixedDepth { return fixed }
        var map = s.pointee.transformToSuperlayerPlane
        if !parent.isRoot, let st = parent.sublayerTransform { map = map.concatenating(st) }
        return DepthSpace(map: map, base: parent.isRoot ? .identity : parent.world)
    }

    /// Whether a layer keeps depth among what it draws (S7.4, S7.5).
    private static func preservesDepth(_ s: UnsafeMutablePointer<LayerState>) -> Bool {
        switch s.pointee.layerKind {
        case .replicator: s.pointee.replicator.preservesDepth
        case .emitter: s.pointee.emitter.configuration.preservesDepth
        default: false
        }
    }

    mutating func visit(_ node: RenderNode, parent: Placement, parentOpacity: Double, parentTime: Double,
                        events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?) {
        guard spend(1) else { return }
        let time = TimingModel.localTime(parentTime, node.state.timing)
        let frozenAbove = timeFrozen, rateAbove = timeRate
        if node.state.timing.speed == 0 { timeFrozen = true }
        timeRate *= node.state.timing.speed
        defer { timeFrozen = frozenAbove; timeRate = rateAbove }
        if node.animations.isEmpty {
            // Fields are read in place: copying the whole LayerState would
            // retain and release its object references for every layer.
            visit(node, node.statePointer, parent: parent, parentOpacity: parentOpacity, time: time, events: events)
        } else if node.tracksWriteFieldsOnly && node.transition == nil {
            // The common case (basic and spring animations of whole
            // properties): evaluated in place into the node's kept presented
            // state, from its inline tracks, with no copy of the state.
            let s = node.presentedForTracks()
            let next = node.tracks.withUnsafeMutableBufferPointer { tracks in
                AnimationEvaluator.apply(tracks: tracks, to: s, layerTime: time, model: node.statePointer, events: events)
            }
            noteChange(next, layerTime: time)
            visit(node, s, parent: parent, parentOpacity: parentOpacity, time: time, events: events)
        } else {
            // Animations apply once per frame; geometry and appearance both use the result.
            var presented = node.state
            withUnsafeMutablePointer(to: &presented) { s in
                let next = AnimationEvaluator.apply(node.animations, to: s, layerTime: time, model: node.statePointer,
                                                    events: events)
                noteChange(next, layerTime: time)
                if let record = node.transition, let before = node.transitionBefore,
                   let p = DisplayListBuilder.transitionProgress(record, layerTime: time) {
                    drawTransition(record.animation.transition, progress: p, before: before, node: node, s,
                                   parent: parent, parentOpacity: parentOpacity, parentTime: parentTime, time: time,
                                   events: events)
                } else {
                    visit(node, s, parent: parent, parentOpacity: parentOpacity, time: time, events: events)
                }
            }
        }
    }

    /// S4.6, S2.4: the layers under one not drawn this frame (hidden, fully
    /// transparent, facing away) still have their animations' starts and
    /// ends noted: delegates hear of them, and the transactions that added
    /// them complete. Before, they waited until the layer was drawn again.
    mutating func noteUndrawn(under node: RenderNode, time: Double,
                              events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?) {
        guard let events else { return }
        noteChange(DisplayListBuilder.noteEvents(under: node, time: time, events: events), layerTime: time)
    }

    /// Something that moves (particles) asks for another frame, unless its
    /// layer's time stands still (`timeFrozen`).
    mutating func noteRunning(_ running: Bool) {
        if running { noteChange(-.infinity, layerTime: 0) }
    }

    /// An animation of the visited layer that may next change at local time
    /// `change` (-infinity: now) when that layer's local time is
    /// `layerTime` asks for a frame then (`nextFrameTime`), unless its
    /// time stands still (`timeFrozen`) or runs backwards away from it.
    mutating func noteChange(_ change: Double, layerTime: Double) {
        guard change < .infinity, nextFrameTime > -.infinity else { return }
        noteFrame(at: DisplayListBuilder.mediaTime(ofChange: change, layerTime: layerTime, rate: timeRate,
                                                   frozen: timeFrozen, frameTime: frameTime))
    }

    /// A frame is wanted at media time `time` (-infinity: the next refresh).
    mutating func noteFrame(at time: Double) { nextFrameTime = min(nextFrameTime, time) }

    /// `change`, a local time at which something may next change
    /// (-infinity: now) of a layer whose local time is `layerTime` in the
    /// frame for media time `frameTime`, and runs at `rate` (`timeRate`),
    /// as a media time: +infinity when its time stands still (`frozen`)
    /// or runs backwards away from it.
    static func mediaTime(ofChange change: Double, layerTime: Double, rate: Double, frozen: Bool,
                          frameTime: Double) -> Double {
        guard change < .infinity, !frozen else { return .infinity }
        guard change > -.infinity else { return -.infinity }
        if rate < 0 { return .infinity }
        let t = frameTime + (change - layerTime) / rate
        // (a rate of NaN, or a time that rounds to this frame's: the next refresh)
        return rate > 0 && t > frameTime ? t : -.infinity
    }

    /// `node`'s mask and sublayers, and theirs, at `time` (node's local
    /// time); returns when one may next change, in that time
    /// (AnimationEvaluator.apply).
    static func noteEvents(under node: RenderNode, time: Double,
                           events: UnsafeMutablePointer<[AnimationEvaluator.Event]>) -> Double {
        var next = Double.infinity
        if let mask = node.mask { next = min(next, noteEvents(of: mask, parentTime: time, events: events)) }
        return min(next, noteEvents(ofSublayers: node, time: time, events: events))
    }

    /// `node`'s sublayers and all under them (not its mask), at `time`.
    static func noteEvents(ofSublayers node: RenderNode, time: Double,
                           events: UnsafeMutablePointer<[AnimationEvaluator.Event]>) -> Double {
        var next = Double.infinity
        for child in node.children { next = min(next, noteEvents(of: child, parentTime: time, events: events)) }
        return next
    }

    /// `node` and all under it, at its superlayer's time `parentTime`;
    /// returns when one may next change, in the superlayer's time.
    static func noteEvents(of node: RenderNode, parentTime: Double,
                           events: UnsafeMutablePointer<[AnimationEvaluator.Event]>) -> Double {
        let time = TimingModel.localTime(parentTime, node.state.timing)
        var next = Double.infinity
        if !node.animations.isEmpty { next = AnimationEvaluator.noteEvents(node.animations, layerTime: time, events: events) }
        next = min(next, noteEvents(under: node, time: time, events: events))
        // Under a speed of 0 nothing moves on (`timeFrozen`).
        return TimingModel.parentChange(next, node.state.timing)
    }

    private static func world(of s: UnsafeMutablePointer<LayerState>, in parent: Placement) -> Transform3D {
        if parent.hasFixedWorld { return parent.fixedWorld! }
        if parent.isRoot { return s.pointee.transformToSuperlayer(through: nil) }
        if !parent.hasSublayerTransform {
            // The common cases, built in one matrix (a transform is 128
            // bytes; each intermediate one was a copy): a plain offset in
            // the superlayer's plane, or the layer's own transform placed
            // and flattened there, then the superlayer's world.
            let b = s.pointee.bounds, anchor = s.pointee.anchorPoint, p = s.pointee.position
            if s.pointee.transform.isIdentity {
                return parent.world.preTranslated(p.x - b.origin.x - anchor.x * b.size.width,
                                                  p.y - b.origin.y - anchor.y * b.size.height)
            }
            // LayerState.transformToSuperlayer(through: nil)'s matrix
            let ax = b.origin.x + anchor.x * b.size.width, ay = b.origin.y + anchor.y * b.size.height
            var m = s.pointee.transform
            m.place(preTranslation: (-ax, -ay, -s.pointee.anchorPointZ), translation: (p.x, p.y, s.pointee.zPosition),
                    flatten: true)
            if parent.worldIsTranslation {
                m.translate(parent.world.m41, parent.world.m42, parent.world.m43)
            } else {
                m = m.concatenating(parent.world)
            }
            return m
        }
        return s.pointee.transformToSuperlayer(through: parent.sublayerTransform).concatenating(parent.world)
    }

    mutating func visit(_ node: RenderNode, _ s: UnsafeMutablePointer<LayerState>, parent: Placement,
                        parentOpacity: Double, time: Double,
                        events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?,
                        shift: (dx: Double, dy: Double) = (0, 0)) {
        let opacity = parentOpacity * s.pointee.opacity
        guard !s.pointee.hidden, opacity > 0 else { return noteUndrawn(under: node, time: time, events: events) }
        if s.pointee.layerKind == .transform {
            drawTransformSpace(node, s, parent: parent, opacity: opacity, time: time, events: events)
            return
        }
        var world = DisplayListBuilder.world(of: s, in: parent)
        if shift.dx != 0 || shift.dy != 0 { world = world.preTranslated(shift.dx, shift.dy) }
        if !s.pointee.doubleSided && DisplayListBuilder.isBackFacing(world) {
            return noteUndrawn(under: node, time: time, events: events)
        }
        var depth: DepthSpace?
        if DisplayListBuilder.preservesDepth(s) {
            var space = DisplayListBuilder.depthSpace(of: s, in: parent)
            if shift.dx != 0 || shift.dy != 0 { space.map = space.map.preTranslated(shift.dx, shift.dy) }
            depth = space
        }
        let layer = LayerDraw(node: node, state: s, world: world, time: time, events: events, clip: parent.clip,
                              depth: depth)

        let mask = node.mask
        let hasShadow = s.pointee.shadowOpacity > 0 && s.pointee.shadowColor.a > 0
        if mask == nil && !hasShadow {
            drawFaded(layer, opacity: opacity)
            return
        }
        // A mask multiplies the whole layer, shadow included (as in Core
        // Animation): the layer draws inside the mask's group, which
        // carries its opacity, unless allowsGroupOpacity is off: then the
        // opacity goes on to each op inside, and overlaps show through.
        var inner = opacity
        if let mask {
            let distributes = !s.pointee.allowsGroupOpacity
            beginGroup(opacity: distributes ? 1 : opacity, flags: LK_DL_FLAG_GROUP_MASK.rawValue)
            visit(mask, parent: Placement(world: world, sublayerTransform: nil, isRoot: false, clip: parent.clip), parentOpacity: 1,
                  parentTime: time, events: events)
            groupContent()
            if !distributes { inner = 1 }
        }
        let superlayerMap = parent.isRoot ? Transform3D.identity
            : (parent.sublayerTransform.map { $0.concatenating(parent.world) } ?? parent.world)
        if hasShadow, let shadow = ShadowSpec.of(s, superlayerMap: superlayerMap, opacity: inner) {
            drawWithShadow(layer, shadow, opacity: inner)
        } else {
            drawFaded(layer, opacity: inner)
        }
        if mask != nil { endGroup() }
    }

    /// Opens a span of ops whose number may change (see `variableRuns`);
    /// returns where it begins, for `endVariableRun`.
    mutating func beginVariableRun() -> Int {
        variableRunDepth += 1
        return count
    }

    mutating func endVariableRun(from first: Int) {
        variableRunDepth -= 1
        if variableRunDepth == 0 { variableRuns.append(first..<count) }
    }

    /// A GRADIENT op over the layer's bounds, rounded as its background is.
    /// No colours draws nothing; locations that do not match the colours in
    /// number spread the colours evenly; animated locations out of 0...1 or
    /// out of order are drawn as GradientState.stopsWithinUnitRange says.
    /// Colours go as they are (straight), clamped to 0...1 (an overshooting
    /// animation may leave them).
    mutating func appendGradient(_ g: GradientState, world: Transform3D, bounds: Rect, radius: Double,
                                 opacity: Double) {
        guard !g.colors.isEmpty, bounds.size.width > 0, bounds.size.height > 0, world.isFinite, mayDraw() else { return }
        let drawn = g.stopsWithinUnitRange()
        let n = drawn?.count ?? g.colors.count
        if stopCount + n > stopCapacity {
            var bigger = stopCapacity * 2
            while bigger < stopCount + n { bigger *= 2 }
            let moved = UnsafeMutablePointer<lk_dl_gradient_stop>.allocate(capacity: bigger)
            moved.moveInitialize(from: stops, count: stopCount)
            stops.deallocate()
            stops = moved
            stopCapacity = bigger
        }
        let located = g.locations.count == g.colors.count   // (read only when drawn is nil)
        func unit(_ v: Double) -> Float { Float(v.isNaN ? 0 : min(max(v, 0), 1)) }
        // S7.5: inside replicator instances the instance colour multiplies
        // each (straight) stop, as it does a fill's colour.
        let instance = instanceTint ?? Color(r: 1, g: 1, b: 1, a: 1)
        for i in 0..<n {
            let stop = drawn?[i].color ?? g.colors[i]
            let c = Color(r: stop.r * instance.r, g: stop.g * instance.g, b: stop.b * instance.b, a: stop.a * instance.a)
            let location = drawn?[i].location ?? (located ? g.locations[i] : (n > 1 ? Double(i) / Double(n - 1) : 0))
            (stops + stopCount + i).initialize(to: lk_dl_gradient_stop(
                location: location, color: lk_dl_color(r: unit(c.r), g: unit(c.g), b: unit(c.b), a: unit(c.a))))
        }
        let kind: lk_dl_gradient_kind = switch g.type {
        case .axial: LK_DL_GRADIENT_AXIAL
        case .radial: LK_DL_GRADIENT_RADIAL
        case .conic: LK_DL_GRADIENT_CONIC
        }
        gradientOps.append((op: count, first: stopCount))
        stopCount += n
        append(.gradient, world, bounds, radius: radius, opacity: opacity)
        let b = bounds
        ops[count - 1].gradient_kind = kind.rawValue
        ops[count - 1].gradient_stop_count = UInt32(n)
        var end = Point(x: b.minX + g.endPoint.x * b.size.width, y: b.minY + g.endPoint.y * b.size.height)
        if g.type == .axial {
            // S7.3: Core Animation lays an axial gradient out in the unit
            // square and stretches that over the bounds, so on a layer that
            // is not square its lines of equal colour are not perpendicular
            // to start -> end in points (corner to corner for (0, 0) -> (1, 1)).
            // The backends take points: the end that gives the same
            // t = (u - start) . d / |d|^2 over the unit coordinates u.
            let d = Point(x: g.endPoint.x - g.startPoint.x, y: g.endPoint.y - g.startPoint.y)
            let gx = d.x / b.size.width, gy = d.y / b.size.height
            let scale = (d.x * d.x + d.y * d.y) / (gx * gx + gy * gy)
            if scale.isFinite, scale > 0 {
                end = Point(x: b.minX + g.startPoint.x * b.size.width + gx * scale,
                            y: b.minY + g.startPoint.y * b.size.height + gy * scale)
            }
        }
        let start = Point(x: b.minX + g.startPoint.x * b.size.width, y: b.minY + g.startPoint.y * b.size.height)
        end = DisplayListBuilder.representableGradientEnd(start: start, end: end, type: g.type)
        ops[count - 1].gradient_start_x = start.x
        ops[count - 1].gradient_start_y = start.y
        ops[count - 1].gradient_end_x = end.x
        ops[count - 1].gradient_end_y = end.y
    }

    /// The shortest gradient vector the backends tell apart from none: a
    /// 16.16 unit, pixman's resolution (software) and far above a float's
    /// at these lengths (gles takes end - start computed in double).
    static let shortestGradientVector = 1.0 / 65536

    /// The end point a backend can draw for start -> end. An axial vector
    /// shorter than the backends resolve (an animation bringing the points
    /// together) is lengthened to the shortest they do, along its own
    /// direction: still a hard step at the start, colours on either side as
    /// before (software took it for none and drew the first colour all
    /// over, gles the last). A radial radius that short is none: the
    /// ellipse covers no pixel centre, the rect has the last colour as for
    /// equal points (software drew nothing).
    /// (Not inlined: inlined into appendGradient, it slowed every frame of
    /// layers with no gradient at all, 10,000 animated ones 1.6 -> 2.2-2.8
    /// ms, through the builder's inlining; measured alternating builds.)
    @inline(never)
    static func representableGradientEnd(start: Point, end: Point, type: GradientType) -> Point {
        let dx = end.x - start.x, dy = end.y - start.y
        switch type {
        case .axial:
            let m = max(abs(dx), abs(dy))   // (squares of 1e-200 underflow)
            guard m > 0, m.isFinite else { return end }
            let length = m * ((dx / m) * (dx / m) + (dy / m) * (dy / m)).squareRoot()
            guard length < shortestGradientVector else { return end }
            let k = shortestGradientVector / length
            return Point(x: start.x + dx * k, y: start.y + dy * k)
        case .radial:
            guard abs(dx) < shortestGradientVector || abs(dy) < shortestGradientVector else { return end }
            return start
        case .conic:
            return end
        }
    }

    /// Sublayers by zPosition (S1.3), the animated value where an animation
    /// changes it; equal values keep the sublayers' order.
    static func drawingOrder(_ children: [RenderNode], parentTime: Double) -> [RenderNode] {
        guard children.contains(where: { $0.animatesZPosition }) else {
            return LayerKitCore.drawingOrder(children, zPosition: { $0.state.zPosition })
        }
        let z = children.map { child -> Double in
            guard child.animatesZPosition else { return child.state.zPosition }
            let local = TimingModel.localTime(parentTime, child.state.timing)
            let key = LayerProperties.zPosition.key
            let value = AnimationEvaluator.presentedValue(of: LayerProperties.named(key)!,
                                                          child.animations.filter { $0.animates(key) },
                                                          layerTime: local, model: child.statePointer)
            if case .number(let n) = value { return n }
            return child.state.zPosition
        }
        return LayerKitCore.drawingOrder(Array(children.indices), zPosition: { z[$0] }).map { children[$0] }
    }

    /// A layer faces away when its plane's map to the screen reverses
    /// orientation (S6.1): the homography's determinant is negative (its sign
    /// holds wherever w > 0, that is, wherever the layer is visible).
    static func isBackFacing(_ world: Transform3D) -> Bool {
        Homography(world).determinant < 0
    }

    /// Counts one drawing op; false, the build truncated, past the limits.
    mutating func mayDraw() -> Bool {
        guard !truncated, drawOps < DisplayListBuilder.maximumDrawOps, spend(1) else {
            truncated = true
            return false
        }
        drawOps += 1
        return true
    }

    // MARK: - Groups

    /// An open PUSH_GROUP: where it is, and the screen box of what its ops
    /// draw so far, written into its rect when it closes.
    private struct OpenGroup {
        var index: Int
        var box = ScreenBox.empty
        /// A mask group's mask part, once GROUP_CONTENT is reached.
        var maskBox: ScreenBox?
        var shadow: ShadowSpec?
    }

    mutating func beginGroup(opacity: Double, flags: UInt32 = 0, shadow: ShadowSpec? = nil) {
        openGroups.append(OpenGroup(index: count, shadow: shadow))
        append(.pushGroup, .identity, .zero, opacity: opacity, flags: flags, shadow: shadow)
    }

    mutating func groupContent() {
        let i = openGroups.count - 1
        openGroups[i].maskBox = openGroups[i].box
        openGroups[i].box = .empty
        append(.groupContent, .identity, .zero)
    }

    mutating func endGroup() {
        let group = openGroups.removeLast()
        var box = group.box
        if let mask = group.maskBox { box = box.intersection(mask) }
        ops[group.index].rect = box.rect
        append(.popGroup, .identity, .zero)
        if !openGroups.isEmpty {
            if let shadow = group.shadow { box = box.withShadow(dx: shadow.offsetX, dy: shadow.offsetY, reach: shadow.reach) }
            openGroups[openGroups.count - 1].box = openGroups[openGroups.count - 1].box.union(box)
        }
    }

    /// The output, and what the shadows of the open groups (and the op's
    /// own) can bring into it, with GuardBand's margin: what an op cut to
    /// it still draws of itself.
    func guardBand(shadow: ShadowSpec?) -> ScreenBox {
        var dx = GuardBand.margin, dy = GuardBand.margin
        func add(_ s: ShadowSpec?) {
            guard let s else { return }
            dx += abs(s.offsetX) + s.reach
            dy += abs(s.offsetY) + s.reach
        }
        for group in openGroups { add(group.shadow) }
        add(shadow)
        return ScreenBox(x0: viewport.x0 - dx, y0: viewport.y0 - dy, x1: viewport.x1 + dx, y1: viewport.y1 + dy)
    }

    /// `append` for an op its guard-band test picked: not finite (a drawing
    /// op goes, a clip clips everything) or far larger than the output (cut
    /// to the band). The cut op is within the band, so `append` keeps it.
    @inline(never)
    private mutating func appendCut(_ kind: Kind, _ world: Transform3D, _ rect: Rect, radius: Double,
                                    borderWidth: Double, color: Color, opacity: Double, image: Image?, source: Rect,
                                    flags: UInt32, shadow: ShadowSpec?, tint: Color?) {
        let cut = world.isFinite ? GuardBand.cut(world, rect, band: guardBand(shadow: shadow)) : .empty
        var (world, rect) = (world, rect)
        switch cut {
        case .keep: break   // (perspective: the backends clip it in homogeneous space)
        case .cut(let t, let r): (world, rect) = (t, r)
        case .empty:
            // A clip of nothing keeps the list nested; a drawing op goes.
            guard kind == .pushClip else { return }
            (world, rect) = (.identity, .zero)
        }
        appendUncut(kind, world, rect, radius: radius, borderWidth: borderWidth, color: color, opacity: opacity,
                    image: image, source: source, flags: flags, shadow: shadow, tint: tint)
    }

    enum Kind: UInt32 {
        case fill = 1, image = 2, border = 3, pushClip = 4, popClip = 5, pushGroup = 6, groupContent = 7, popGroup = 8
        case gradient = 9
    }

    mutating func append(_ kind: Kind, _ world: Transform3D, _ rect: Rect, radius: Double = 0,
                         borderWidth: Double = 0, color: Color = .clear, opacity: Double = 1,
                         image: Image? = nil, source: Rect = .zero,
                         flags: UInt32 = LK_DL_FLAG_ANTIALIAS.rawValue, shadow: ShadowSpec? = nil,
                         tint: Color? = nil) {
        // No NaN or infinity reaches a backend; plain fills and clips far
        // larger than the output are cut to a band around it (GuardBand).
        // The test inline, the cut out of line: every op takes the test.
        if kind.rawValue <= Kind.pushClip.rawValue
            && (!world.isFinite || ((kind == .fill || kind == .pushClip) && radius == 0 && borderWidth == 0
                                    && GuardBand.reachesFar(world, rect, output: viewport))) {
            appendCut(kind, world, rect, radius: radius, borderWidth: borderWidth, color: color, opacity: opacity,
                      image: image, source: source, flags: flags, shadow: shadow, tint: tint)
            return
        }
        appendUncut(kind, world, rect, radius: radius, borderWidth: borderWidth, color: color, opacity: opacity,
                    image: image, source: source, flags: flags, shadow: shadow, tint: tint)
    }

    /// `append` once its guard-band test passed.
    @inline(__always)
    private mutating func appendUncut(_ kind: Kind, _ world: Transform3D, _ rect: Rect, radius: Double,
                                      borderWidth: Double, color: Color, opacity: Double, image: Image?,
                                      source: Rect, flags: UInt32, shadow: ShadowSpec?, tint: Color?) {
        // Drawing ops count against the limits; the others open and close
        // what the drawing ops are in, and so always go in (the list stays
        // well nested however it was cut).
        if kind.rawValue <= Kind.border.rawValue && !mayDraw() { return }
        if count == capacity {
            let bigger = UnsafeMutablePointer<lk_dl_op>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: ops, count: count)
            ops.deallocate()
            ops = bigger
            capacity *= 2
        }
        if !openGroups.isEmpty && (kind.rawValue <= Kind.border.rawValue || kind == .gradient) {
            let i = openGroups.count - 1
            openGroups[i].box = openGroups[i].box.union(ScreenBox(world, rect))
        }
        // S7.5: inside replicator instances, fills and borders take the
        // instance colour into their own; images get it as a TINT; a
        // shadow's colour takes its red, green and blue (the instance's
        // alpha reaches the shadow through what casts it, drawn in the
        // group with the instance colour: taken twice it would square).
        var color = color, flags = flags
        var tint = tint
        var shadowColor = shadow?.color ?? lk_dl_color(r: 0, g: 0, b: 0, a: 0)
        if let instance = instanceTint {
            if kind == .image {
                tint = DisplayListBuilder.multiply(tint, instance)
            } else if kind == .fill || kind == .border {
                color = Color(r: color.r * instance.r, g: color.g * instance.g, b: color.b * instance.b,
                              a: color.a * instance.a)
            } else if shadow != nil {
                shadowColor.r *= Float(instance.r)
                shadowColor.g *= Float(instance.g)
                shadowColor.b *= Float(instance.b)
            }
        }
        var tintColor = lk_dl_color(r: 0, g: 0, b: 0, a: 0)
        if kind == .image, let t = tint {
            flags |= LK_DL_FLAG_TINT.rawValue
            let ta = Float(t.a)
            tintColor = lk_dl_color(r: Float(t.r) * ta, g: Float(t.g) * ta, b: Float(t.b) * ta, a: ta)
        }
        let a = Float(color.a)
        ops[count] = lk_dl_op(
            kind: kind.rawValue,
            flags: flags,
            transform: (world.m11, world.m12, world.m13, world.m14, world.m21, world.m22, world.m23, world.m24,
                        world.m31, world.m32, world.m33, world.m34, world.m41, world.m42, world.m43, world.m44),
            rect: lk_dl_rect(x: rect.origin.x, y: rect.origin.y, width: rect.size.width, height: rect.size.height),
            corner_radius: radius,
            border_width: borderWidth,
            color: lk_dl_color(r: Float(color.r) * a, g: Float(color.g) * a, b: Float(color.b) * a, a: a),
            opacity: Float(opacity),
            reserved: 0,
            image: image.map { UnsafePointer($0.descriptor) },
            source: lk_dl_rect(x: source.origin.x, y: source.origin.y, width: source.size.width, height: source.size.height),
            shadow_color: shadowColor,
            shadow_offset_x: shadow?.offsetX ?? 0, shadow_offset_y: shadow?.offsetY ?? 0,
            shadow_sigma: shadow?.sigma ?? 0,
            tint: tintColor,
            gradient_kind: 0, gradient_stop_count: 0, gradient_stops: nil,
            gradient_start_x: 0, gradient_start_y: 0, gradient_end_x: 0, gradient_end_y: 0)
        count += 1
    }
}

extension Transform3D {
    /// A translation (tx, ty) in the plane, then self: T * self, in a few multiplications.
    func preTranslated(_ tx: Double, _ ty: Double) -> Transform3D {
        var r = self
        r.m41 = tx * m11 + ty * m21 + m41
        r.m42 = tx * m12 + ty * m22 + m42
        r.m43 = tx * m13 + ty * m23 + m43
        r.m44 = tx * m14 + ty * m24 + m44
        return r
    }
}
