import CSupport
import CLayerKit
import Glibc

/// Turns a layer tree into the backend's display list (S6.1): per layer,
/// back to front, shadow, background, contents, sublayers (clipped when
/// masksToBounds), border. Offscreen groups carry what needs a layer drawn
/// as one picture: group opacity, a mask's alpha, a shadow derived from the
/// layer's alpha. Hidden and fully transparent subtrees and culled back
/// faces produce nothing. The op buffer is reused frame to frame.
public struct DisplayListBuilder: ~Copyable {
    private var ops: UnsafeMutablePointer<lk_dl_op>
    private var capacity: Int
    public private(set) var count = 0
    /// Whether an animation in the last list may still change what is drawn.
    public internal(set) var animating = false
    /// Layers whose kind content was rasterized (not reused) since this builder began.
    public private(set) var rasterizations: UInt64 = 0
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
        animating = false
        images.removeAll(keepingCapacity: true)
        openGroups.removeAll(keepingCapacity: true)
        stopCount = 0
        gradientOps.removeAll(keepingCapacity: true)
        instanceTint = nil
        variableRuns.removeAll(keepingCapacity: true)
        variableRunDepth = 0
        tileNeeds.removeAll(keepingCapacity: true)
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
    private mutating func spend(_ units: Int) -> Bool {
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
        if node.animations.isEmpty {
            // Fields are read in place: copying the whole LayerState would
            // retain and release its object references for every layer.
            visit(node, node.statePointer, parent: parent, parentOpacity: parentOpacity, time: time, events: events)
        } else if node.tracksWriteFieldsOnly && node.transition == nil {
            // The common case (basic and spring animations of whole
            // properties): evaluated in place into the node's kept presented
            // state, from its inline tracks, with no copy of the state.
            let s = node.presentedForTracks()
            let running = node.tracks.withUnsafeMutableBufferPointer { tracks in
                AnimationEvaluator.apply(tracks: tracks, to: s, layerTime: time, model: node.statePointer, events: events)
            }
            if running { animating = true }
            visit(node, s, parent: parent, parentOpacity: parentOpacity, time: time, events: events)
        } else {
            // Animations apply once per frame; geometry and appearance both use the result.
            var presented = node.state
            withUnsafeMutablePointer(to: &presented) { s in
                let running = AnimationEvaluator.apply(node.animations, to: s, layerTime: time, model: node.statePointer,
                                                       events: events)
                if running { animating = true }
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
        if DisplayListBuilder.noteEvents(under: node, time: time, events: events) { animating = true }
    }

    /// `node`'s mask and sublayers, and theirs, at `time` (node's local time).
    static func noteEvents(under node: RenderNode, time: Double,
                           events: UnsafeMutablePointer<[AnimationEvaluator.Event]>) -> Bool {
        var running = false
        if let mask = node.mask, noteEvents(of: mask, parentTime: time, events: events) { running = true }
        for child in node.children where noteEvents(of: child, parentTime: time, events: events) { running = true }
        return running
    }

    /// `node` and all under it, at its superlayer's time `parentTime`.
    static func noteEvents(of node: RenderNode, parentTime: Double,
                           events: UnsafeMutablePointer<[AnimationEvaluator.Event]>) -> Bool {
        let time = TimingModel.localTime(parentTime, node.state.timing)
        var running = false
        if !node.animations.isEmpty, AnimationEvaluator.noteEvents(node.animations, layerTime: time, events: events) {
            running = true
        }
        if noteEvents(under: node, time: time, events: events) { running = true }
        return running
    }

    /// The transition's progress at the layer's local time, nil when it
    /// shows nothing (not begun and not filling backwards, or over).
    private static func transitionProgress(_ record: AnimationRecord, layerTime: Double) -> Double? {
        let animation = record.animation
        let evaluation = TimingModel.evaluate(animation.timing,
                                              localTime: TimingModel.localTime(layerTime, animation.timing))
        if record.stopped && animation.removedOnCompletion && evaluation.phase == .after { return nil }
        guard let progress = evaluation.progress else { return nil }
        return animation.transition.progress(at: animation.timingFunction?.evaluate(progress) ?? progress)
    }

    /// S4.13: the frozen "before" and the live layer, moved and faded by the
    /// transition. A fade is an exact dissolve, old x (1 - p) + new x p: both
    /// are added into one group, which then goes over what lies below.
    private mutating func drawTransition(_ t: TransitionParameters, progress p: Double, before: RenderNode,
                                         node: RenderNode, _ s: UnsafeMutablePointer<LayerState>, parent: Placement,
                                         parentOpacity: Double, parentTime: Double, time: Double,
                                         events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?) {
        let place = t.placement(at: p, size: s.pointee.bounds.size)
        let fade = t.type == .fade
        if fade { beginGroup(opacity: 1) }
        for old in t.oldOnTop ? [false, true] : [true, false] {
            let part = old ? place.old : place.new
            if fade {
                guard part.opacity > 0 else { continue }
                beginGroup(opacity: part.opacity, flags: LK_DL_FLAG_BLEND_ADD.rawValue)
            }
            if old {
                let beforeTime = TimingModel.localTime(parentTime, before.state.timing)
                visit(before, before.statePointer, parent: parent, parentOpacity: parentOpacity, time: beforeTime,
                      events: nil, shift: (part.dx, part.dy))
            } else {
                visit(node, s, parent: parent, parentOpacity: parentOpacity, time: time, events: events,
                      shift: (part.dx, part.dy))
            }
            if fade { endGroup() }
        }
        if fade { endGroup() }
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

    private mutating func visit(_ node: RenderNode, _ s: UnsafeMutablePointer<LayerState>, parent: Placement,
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

    /// One layer being drawn, with what its sublayers need.
    struct LayerDraw {
        let node: RenderNode
        let state: UnsafeMutablePointer<LayerState>
        let world: Transform3D
        let time: Double
        let events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?
        /// The output box its ancestors leave visible.
        let clip: ScreenBox
        /// Where it lies in 3D, for a layer that keeps depth (preservesDepth).
        var depth: DepthSpace? = nil
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

    /// The layer at `opacity`: as one group when it fades as a whole
    /// (allowsGroupOpacity) and has parts that overlap (sublayers, or two
    /// of background, contents and border); otherwise the opacity multiplies
    /// each op, and a plain layer stays on the backends' fast paths.
    private mutating func drawFaded(_ layer: LayerDraw, opacity: Double) {
        let s = layer.state
        if opacity < 1 && s.pointee.opacity < 1 && s.pointee.allowsGroupOpacity && DisplayListBuilder.hasOverlappingParts(layer) {
            beginGroup(opacity: opacity)
            drawLayer(layer, opacity: 1)
            endGroup()
        } else {
            drawLayer(layer, opacity: opacity)
        }
    }

    private static func hasOverlappingParts(_ layer: LayerDraw) -> Bool {
        if !layer.node.children.isEmpty { return true }
        let s = layer.state
        var parts = 0
        if let c = s.pointee.backgroundColor, c.a > 0 { parts += 1 }
        if s.pointee.contents != nil { parts += 1 }
        if s.pointee.kindStorage != nil { parts += 1 }
        if s.pointee.borderWidth > 0 && s.pointee.borderColor.a > 0 { parts += 1 }
        return parts > 1
    }

    /// S6.1's shadow goes first. With a shadowPath it is that path's: a
    /// rect, rounded rect or ellipse as one FILL, any other path as its
    /// rasterized coverage (one IMAGE under the layer's map, so the shadow
    /// turns and scales with the layer); an empty path casts none. Without
    /// one it is the layer's own composited alpha (background, contents,
    /// sublayers, border), so the layer draws as one group casting it.
    /// masksToBounds clips the layer's shadow too, as in Core Animation.
    /// With allowsGroupOpacity off the shadow is still cast by the whole
    /// layer (its colour times the opacity), but the layer itself is drawn
    /// with the opacity on each op, not as one faded group.
    private mutating func drawWithShadow(_ layer: LayerDraw, _ shadow: ShadowSpec, opacity: Double) {
        let s = layer.state
        let bounds = s.pointee.bounds, radius = s.pointee.cornerRadius
        let masks = s.pointee.masksToBounds
        if let path = s.pointee.shadowPath {
            if let shape = ShadowShape(path.data) {
                if masks { append(.pushClip, layer.world, bounds, radius: radius) }
                beginGroup(opacity: 1, flags: LK_DL_FLAG_SHADOW_ONLY.rawValue, shadow: shadow)
                append(.fill, shape.local.concatenating(layer.world), shape.rect, radius: shape.radius,
                       color: Color(r: 1, g: 1, b: 1, a: 1))
                endGroup()
                if masks { append(.popClip, layer.world, bounds) }
            } else if let coverage = ShadowCoverage.coverage(
                of: path.data, bounds: bounds, scale: DisplayListBuilder.rasterScale(s, world: layer.world, path: path.data),
                cache: &layer.node.shadowCoverage, rasterizations: &rasterizations) {
                images.append(coverage.image)
                if masks { append(.pushClip, layer.world, bounds, radius: radius) }
                beginGroup(opacity: 1, flags: LK_DL_FLAG_SHADOW_ONLY.rawValue, shadow: shadow)
                append(.image, layer.world, coverage.rect, image: coverage.image,
                       source: Rect(x: 0, y: 0, width: Double(coverage.image.width), height: Double(coverage.image.height)))
                endGroup()
                if masks { append(.popClip, layer.world, bounds) }
            }
            drawFaded(layer, opacity: opacity)
        } else if !masks && (s.pointee.allowsGroupOpacity || opacity >= 1) {
            beginGroup(opacity: opacity, shadow: shadow)
            drawLayer(layer, opacity: 1)
            endGroup()
        } else {
            if masks { append(.pushClip, layer.world, bounds, radius: radius) }
            beginGroup(opacity: 1, flags: LK_DL_FLAG_SHADOW_ONLY.rawValue, shadow: shadow)
            drawLayer(layer, opacity: 1)
            endGroup()
            if masks { append(.popClip, layer.world, bounds) }
            drawFaded(layer, opacity: opacity)
        }
    }

    /// The scale a shadowPath is rasterized at: the layer's contentsScale,
    /// or more where the world map enlarges the layer, so the coverage has
    /// at least one pixel per output pixel. The enlargement (the map's
    /// longest stretch of a unit vector) is rounded up to a power of two, so
    /// a scale animation re-rasterizes a few times, not every frame; a path
    /// that would then exceed the largest content image keeps contentsScale.
    static func rasterScale(_ s: UnsafeMutablePointer<LayerState>, world w: Transform3D, path: PathData) -> Double {
        let base = s.pointee.contentsScale
        let w44 = abs(w.m44) > 1e-9 ? abs(w.m44) : 1
        let stretch = max((w.m11 * w.m11 + w.m12 * w.m12).squareRoot(), (w.m21 * w.m21 + w.m22 * w.m22).squareRoot()) / w44
        guard stretch.isFinite, stretch > base else { return base }
        var scale = 1.0
        while scale < stretch && scale < 64 { scale *= 2 }
        let box = path.bounds
        let side = max(box.size.width, box.size.height) + 2
        return side * scale <= ContentRasterizer.maximumSide ? max(scale, base) : base
    }

    /// Background, contents, sublayers (clipped when masksToBounds), border.
    private mutating func drawLayer(_ layer: LayerDraw, opacity: Double) {
        let s = layer.state, world = layer.world
        let bounds = s.pointee.bounds
        let radius = s.pointee.cornerRadius
        let masks = s.pointee.masksToBounds

        if let color = s.pointee.backgroundColor, color.a > 0 {
            append(.fill, world, bounds, radius: radius, color: color, opacity: opacity)
        }
        if masks {
            append(.pushClip, world, bounds, radius: radius)
        }
        if let image = s.pointee.contents {
            appendContents(image, of: s, world: world, opacity: opacity)
        }
        let kind = s.pointee.layerKind
        if kind == .gradient && s.pointee.gradient.type != .conic {
            // Drawn by the backend from its stops: nothing to rasterize or
            // upload when the colours or the size change (S7.3). A conic
            // gradient is rasterized instead (below): its seam, where
            // location 1 meets 0, is anti-aliased there, and the ABI's conic
            // op draws it hard.
            appendGradient(s.pointee.gradient, world: world, bounds: bounds, radius: radius, opacity: opacity)
        } else if kind == .emitter {
            drawParticles(layer, opacity: opacity)
        } else if kind == .tiled {
            appendTiles(of: s, world: world, clip: layer.clip, opacity: opacity)
        } else if kind.rasterizes,
           let content = ContentCache.content(for: s, cache: &layer.node.content, rasterizations: &rasterizations) {
            // A special layer's drawing (S7.1-S7.3) over its contents.
            images.append(content.image)
            append(.image, world, content.rect, opacity: opacity, image: content.image,
                   source: Rect(x: 0, y: 0, width: Double(content.image.width), height: Double(content.image.height)))
        }
        let children = layer.node === contentOnly ? [] : layer.node.children
        if !children.isEmpty {
            let clip = masks ? layer.clip.intersection(ScreenBox(world, bounds)) : layer.clip
            if kind == .replicator {
                drawInstances(layer, opacity: opacity, clip: clip)
            } else {
                let placement = Placement(world: world, sublayerTransform: s.pointee.sublayerTransformAboutAnchor, isRoot: false,
                                          clip: clip)
                let order = DisplayListBuilder.drawingOrder(children, parentTime: layer.time)
                for k in order.indices {
                    // Siblings ahead are asked for while this one is drawn,
                    // each step reading what the step before brought in: the
                    // node three ahead, its state and tracks two ahead, the
                    // objects its tracks point to (whole transforms) next.
                    if k + 3 < order.count {
                        layerkit_support_prefetch(Unmanaged.passUnretained(order[k + 3]).toOpaque(), 192)
                    }
                    if k + 2 < order.count { order[k + 2].prefetch() }
                    if k + 1 < order.count { order[k + 1].prefetchTrackObjects() }
                    visit(order[k], parent: placement, parentOpacity: opacity, parentTime: layer.time,
                          events: layer.events)
                }
            }
        }
        if masks {
            append(.popClip, world, bounds)
        }
        let borderWidth = s.pointee.borderWidth
        if borderWidth > 0 {
            let color = s.pointee.borderColor
            if color.a > 0 {
                append(.border, world, bounds, radius: radius, borderWidth: borderWidth, color: color, opacity: opacity)
            }
        }
    }

    /// A GRADIENT op over the layer's bounds, rounded as its background is.
    /// No colours draws nothing; locations that do not match the colours in
    /// number spread the colours evenly. Colours go as they are (straight),
    /// clamped to 0...1 (an overshooting animation may leave them).
    private mutating func appendGradient(_ g: GradientState, world: Transform3D, bounds: Rect, radius: Double,
                                         opacity: Double) {
        let n = g.colors.count
        guard n > 0, bounds.size.width > 0, bounds.size.height > 0, mayDraw() else { return }
        if stopCount + n > stopCapacity {
            var bigger = stopCapacity * 2
            while bigger < stopCount + n { bigger *= 2 }
            let moved = UnsafeMutablePointer<lk_dl_gradient_stop>.allocate(capacity: bigger)
            moved.moveInitialize(from: stops, count: stopCount)
            stops.deallocate()
            stops = moved
            stopCapacity = bigger
        }
        let located = g.locations.count == n
        func unit(_ v: Double) -> Float { Float(v.isNaN ? 0 : min(max(v, 0), 1)) }
        // S7.5: inside replicator instances the instance colour multiplies
        // each (straight) stop, as it does a fill's colour.
        let instance = instanceTint ?? Color(r: 1, g: 1, b: 1, a: 1)
        for (i, stop) in g.colors.enumerated() {
            let c = Color(r: stop.r * instance.r, g: stop.g * instance.g, b: stop.b * instance.b, a: stop.a * instance.a)
            let location = located ? g.locations[i] : (n > 1 ? Double(i) / Double(n - 1) : 0)
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
        ops[count - 1].gradient_start_x = b.minX + g.startPoint.x * b.size.width
        ops[count - 1].gradient_start_y = b.minY + g.startPoint.y * b.size.height
        ops[count - 1].gradient_end_x = b.minX + g.endPoint.x * b.size.width
        ops[count - 1].gradient_end_y = b.minY + g.endPoint.y * b.size.height
    }

    /// S7.4: the live particles, above the layer's background and contents
    /// and below its sublayers, in the render mode's order. Each is its
    /// cell's contents (contentsRect) centred on the particle, scaled and
    /// turned about its centre, multiplied by its colour (a TINT); additive
    /// mode adds. Without preservesDepth particles lie in the layer's plane;
    /// with it each keeps its z and is placed in the superlayer's 3D space
    /// (its perspective included), back to front by depth there in the
    /// backToFront mode.
    private mutating func drawParticles(_ layer: LayerDraw, opacity: Double) {
        guard let render = layer.node.emitter, !truncated else { return }
        let e = layer.state.pointee.emitter
        guard let simulation = render.simulation(for: e, at: layer.time) else { return }
        let config = e.configuration
        let depth = config.preservesDepth ? layer.depth : nil
        var particles = simulation.particles(at: layer.time)
        guard spend(particles.count) else { return }
        if let depth {
            particles = DisplayListBuilder.inDepth(particles, depth.map, sorted: config.renderMode == .backToFront)
        }
        if !particles.isEmpty || (config.birthRate > 0 && e.cells.contains { $0.attributes.enabled }) { animating = true }
        var flags = LK_DL_FLAG_ANTIALIAS.rawValue
        if config.renderMode == .additive { flags |= LK_DL_FLAG_BLEND_ADD.rawValue }
        let first = beginVariableRun()
        defer { endVariableRun(from: first) }
        // The cell's image is looked up when the cell changes, and held
        // unretained per particle: the simulation holds it, and `images`
        // (the list's) from its first op on. A retain and release per
        // particle went to the image's side table (it has weak
        // references): about 270 instructions a particle.
        var image: Unmanaged<Image>?   // the cell's contents
        var appended: Unmanaged<Image>?   // the last image added to `images`
        var lastCell: Int32 = -1
        var source = Rect.zero
        for p in particles where !truncated {
            if p.cell != lastCell {
                guard let contents = simulation.contents(ofCell: p.cell) else { continue }
                let cr = simulation.contentsRect(ofCell: p.cell)
                let w = Double(contents.width), h = Double(contents.height)
                source = Rect(x: cr.origin.x * w, y: cr.origin.y * h, width: cr.size.width * w, height: cr.size.height * h)
                if appended?.toOpaque() != Unmanaged.passUnretained(contents).toOpaque() {
                    images.append(contents)
                    appended = Unmanaged.passUnretained(contents)
                }
                image = Unmanaged.passUnretained(contents)
                lastCell = p.cell
            }
            guard let image else { continue }
            let w = abs(source.size.width) * p.scale, h = abs(source.size.height) * p.scale
            guard w > 0, h > 0, p.color.a > 0 else { continue }
            let c = cos(p.rotation), sn = sin(p.rotation)
            var m = Transform3D.identity
            m.m11 = c; m.m12 = sn; m.m21 = -sn; m.m22 = c
            m.m41 = p.x; m.m42 = p.y
            if depth != nil { m.m43 = p.z }
            let white = p.color.r == 1 && p.color.g == 1 && p.color.b == 1 && p.color.a == 1
            let world = depth.map { $0.world(m) } ?? m.concatenating(layer.world)
            image._withUnsafeGuaranteedRef { contents in
                append(.image, world, Rect(x: -w / 2, y: -h / 2, width: w, height: h),
                       opacity: opacity, image: contents, source: source, flags: flags, tint: white ? nil : p.color)
            }
        }
    }

    /// S7.5: the sublayers drawn instanceCount times, instance n through
    /// instanceTransform^n about the layer's anchor, multiplied by its
    /// colour, its sublayers' time n x instanceDelay behind. No layer is
    /// copied: the same nodes are visited again.
    private mutating func drawInstances(_ layer: LayerDraw, opacity: Double, clip: ScreenBox) {
        let s = layer.state
        let r = s.pointee.replicator
        let count = Int(r.instanceCount)
        guard count > 0 else { return }
        if r.preservesDepth, let depth = layer.depth {
            drawInstancesInDepth(layer, depth, opacity: opacity, clip: clip)
            return
        }
        let step = DisplayListBuilder.instanceStep(s)
        let outerTint = instanceTint
        let sublayerTransform = s.pointee.sublayerTransformAboutAnchor
        var power = Transform3D.identity
        for n in 0..<count where !truncated {
            let c = r.color(ofInstance: n)
            guard c.a > 0 else {
                power = step.concatenating(power)
                continue
            }
            instanceTint = DisplayListBuilder.multiply(outerTint, c)
            let placement = Placement(world: n == 0 ? layer.world : power.concatenating(layer.world),
                                      sublayerTransform: sublayerTransform, isRoot: false, clip: clip)
            let time = layer.time - Double(n) * r.instanceDelay
            for child in DisplayListBuilder.drawingOrder(layer.node.children, parentTime: time) {
                visit(child, parent: placement, parentOpacity: opacity, parentTime: time,
                      events: n == 0 ? layer.events : nil)
            }
            power = step.concatenating(power)
        }
        instanceTint = outerTint
    }

    /// instanceTransform about the replicator's anchor: one instance to the next.
    static func instanceStep(_ s: UnsafeMutablePointer<LayerState>) -> Transform3D {
        let t = s.pointee.replicator.instanceTransform
        guard !t.isIdentity else { return .identity }
        let a = s.pointee.anchorInBounds
        return Transform3D.translation(-a.x, -a.y, 0).concatenating(t).thenTranslating(a.x, a.y, 0)
    }

    /// Two multiplying colours; nil (white) when there is nothing to multiply.
    static func multiply(_ a: Color?, _ b: Color?) -> Color? {
        guard let b, !(b.r == 1 && b.g == 1 && b.b == 1 && b.a == 1) else { return a }
        guard let a else { return b }
        return Color(r: a.r * b.r, g: a.g * b.g, b: a.b * b.b, a: a.a * b.a)
    }

    private mutating func appendContents(_ image: Image, of s: UnsafeMutablePointer<LayerState>, world: Transform3D,
                                         opacity: Double) {
        guard let placement = ContentsPlacement.place(imageWidth: image.width, imageHeight: image.height,
                                                      in: s.pointee.bounds, contentsRect: s.pointee.contentsRect,
                                                      gravity: s.pointee.contentsGravity,
                                                      scale: s.pointee.contentsScale) else { return }
        images.append(image)
        guard let slices = NineSlice.slices(destination: placement.destination, source: placement.source,
                                            center: s.pointee.contentsCenter, scale: s.pointee.contentsScale) else {
            append(.image, world, placement.destination, opacity: opacity, image: image, source: placement.source)
            return
        }
        // Slices meet edge to edge: drawn without anti-aliasing (pixel-centre
        // sampling) they neither overlap nor leave seams. Unless the outline
        // lands on whole pixels, an anti-aliased clip gives it smooth edges.
        let d = placement.destination
        let clip = !DisplayListBuilder.landsOnPixels(world, d)
        if clip { append(.pushClip, world, d) }
        for slice in slices {
            append(.image, world, slice.destination, opacity: opacity, image: image, source: slice.source, flags: 0)
        }
        if clip { append(.popClip, world, d) }
    }

    /// Whether `rect` under `t` is an axis-aligned rect with whole-pixel edges.
    private static func landsOnPixels(_ t: Transform3D, _ rect: Rect) -> Bool {
        guard t.m12 == 0, t.m21 == 0, t.m14 == 0, t.m24 == 0, t.m44 == 1 else { return false }
        func whole(_ v: Double) -> Bool { abs(v - v.rounded()) < 1e-9 }
        return whole(rect.minX * t.m11 + t.m41) && whole(rect.maxX * t.m11 + t.m41)
            && whole(rect.minY * t.m22 + t.m42) && whole(rect.maxY * t.m22 + t.m42)
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
    private mutating func mayDraw() -> Bool {
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

    private mutating func beginGroup(opacity: Double, flags: UInt32 = 0, shadow: ShadowSpec? = nil) {
        openGroups.append(OpenGroup(index: count, shadow: shadow))
        append(.pushGroup, .identity, .zero, opacity: opacity, flags: flags, shadow: shadow)
    }

    private mutating func groupContent() {
        let i = openGroups.count - 1
        openGroups[i].maskBox = openGroups[i].box
        openGroups[i].box = .empty
        append(.groupContent, .identity, .zero)
    }

    private mutating func endGroup() {
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

    enum Kind: UInt32 {
        case fill = 1, image = 2, border = 3, pushClip = 4, popClip = 5, pushGroup = 6, groupContent = 7, popGroup = 8
        case gradient = 9
    }

    mutating func append(_ kind: Kind, _ world: Transform3D, _ rect: Rect, radius: Double = 0,
                                 borderWidth: Double = 0, color: Color = .clear, opacity: Double = 1,
                                 image: Image? = nil, source: Rect = .zero,
                                 flags: UInt32 = LK_DL_FLAG_ANTIALIAS.rawValue, shadow: ShadowSpec? = nil,
                                 tint: Color? = nil) {
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
        // instance colour into their own; images get it as a TINT.
        var color = color, flags = flags
        var tint = tint
        if let instance = instanceTint {
            if kind == .image {
                tint = DisplayListBuilder.multiply(tint, instance)
            } else if kind == .fill || kind == .border {
                color = Color(r: color.r * instance.r, g: color.g * instance.g, b: color.b * instance.b,
                              a: color.a * instance.a)
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
            shadow_color: shadow?.color ?? lk_dl_color(r: 0, g: 0, b: 0, a: 0),
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
