/// S6.3, S7.6: a transform layer's sublayers share one 3D space. Every
/// layer reached from it through transform layers is placed by its whole,
/// unflattened 3D map into the plane of the transform layer's superlayer,
/// then all of them are drawn back to front: sorted by the depth of their
/// centres, then ordered by DepthSort, which cuts layers that cross each
/// other along the line where they meet (each piece drawn clipped to its
/// side). Each such layer still flattens its own sublayers into its plane.
/// The transform layers themselves draw nothing but their sublayers.
extension DisplayListBuilder {
    /// One layer of a shared 3D space, ready to draw.
    struct SpaceItem {
        let node: RenderNode
        /// Its map to the output (flattened only at the end).
        let world: Transform3D
        /// Its unflattened map into the space's plane.
        let map: Transform3D
        /// z / w of its centre in the superlayer's space: larger is nearer.
        let depth: Double
        /// Its bounds' corners in that space, divided by w (DepthSort's
        /// projected space); nil when a corner is not in front of the eye.
        let quad: [SIMD3<Double>]?
        /// Its bounds in its own coordinates.
        let bounds: Rect
        let order: Int
        let parentOpacity: Double
        let parentTime: Double
        /// The replicator instance colour it is drawn with (S7.5), nil for none.
        let tint: Color?
        /// Whether its animations' start and stop are noted (not for
        /// replicator instances after the first: they are not layers).
        let notesEvents: Bool
        /// Whether the layers above it in the tree have a speed of 0
        /// (`timeFrozen`): the time it is drawn at stands still.
        let frozen: Bool
        /// How fast the time it is drawn at runs (`timeRate`).
        let rate: Double
        /// A preservesDepth replicator: its own background, contents and
        /// border only, its instances being items of the space themselves.
        var contentOnly = false
    }

    mutating func drawTransformSpace(_ node: RenderNode, _ s: UnsafeMutablePointer<LayerState>, parent: Placement,
                                     opacity: Double, time: Double,
                                     events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?) {
        var space = s.pointee.transformToSuperlayerPlane
        if !parent.isRoot, let st = parent.sublayerTransform { space = space.concatenating(st) }
        let base = parent.isRoot ? Transform3D.identity : parent.world
        var items: [SpaceItem] = []
        var next = Double.infinity
        DisplayListBuilder.gather(node.children, sublayerTransform: s.pointee.sublayerTransformAboutAnchor, space: space,
                                  base: base, opacity: opacity, time: time, events: events, tint: instanceTint,
                                  into: &items, next: &next, clock: SpaceClock(frozen: timeFrozen, rate: timeRate,
                                                                               frameTime: frameTime))
        noteFrame(at: next)
        let gathered = items.count
        drawSpace(&items, base: base, clip: parent.clip, events: events)
        noteSpaceLimit(gathered)   // (after: a truncated build visits nothing more)
    }

    /// Draws the layers of one space back to front (equal depths in the
    /// order gathered).
    mutating func drawSpace(_ items: inout [SpaceItem], base: Transform3D, clip: ScreenBox,
                            events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?) {
        items.sort { ($0.depth, $0.order) < ($1.depth, $1.order) }
        // Layers that start or stop crossing change the number of pieces.
        let first = beginVariableRun()
        defer { endVariableRun(from: first) }
        let outerTint = instanceTint
        var visited = [Bool](repeating: false, count: items.count)
        for piece in DepthSort.pieces(items.map(\.quad)) {
            let item = items[piece.index]
            let placement = Placement(world: base, sublayerTransform: nil, isRoot: false, clip: clip,
                                      fixedWorld: item.world, fixedDepth: DepthSpace(map: item.map, base: base))
            instanceTint = item.tint
            contentOnly = item.contentOnly ? item.node : nil
            for half in piece.clips { pushHalfPlaneClip(half, of: item, within: clip) }
            // A cut layer's animations start and stop once, with its first piece.
            let notes = item.notesEvents && !visited[piece.index]
            visited[piece.index] = true
            let frozenAbove = timeFrozen, rateAbove = timeRate
            (timeFrozen, timeRate) = (item.frozen, item.rate)
            visit(item.node, parent: placement, parentOpacity: item.parentOpacity, parentTime: item.parentTime,
                  events: notes ? events : nil)
            (timeFrozen, timeRate) = (frozenAbove, rateAbove)
            for _ in piece.clips { append(.popClip, item.world, item.bounds) }
        }
        contentOnly = nil
        instanceTint = outerTint
    }

    /// A PUSH_CLIP keeping the side of `half` (in DepthSort's projected
    /// space) on `item`'s plane: in the item's own coordinates that side
    /// is the half-plane a x + b y + c >= 0 (where w > 0, as for every
    /// corner of a cut layer), clipped by a rect laid along its edge, far
    /// enough to cover the layer and whatever it draws beyond its bounds
    /// within the output box `within` (see `clipReach`). Not anti-aliased:
    /// the two pieces of a layer meet exactly, with no seam.
    private mutating func pushHalfPlaneClip(_ half: DepthSort.HalfSpace, of item: SpaceItem, within: ScreenBox) {
        let m = item.map, n = half.n, d = half.d
        let a = n.x * m.m11 + n.y * m.m12 + n.z * m.m13 + d * m.m14
        let b = n.x * m.m21 + n.y * m.m22 + n.z * m.m23 + d * m.m24
        let c = n.x * m.m41 + n.y * m.m42 + n.z * m.m43 + d * m.m44
        let length = (a * a + b * b).squareRoot()
        let bounds = item.bounds
        let cx = bounds.origin.x + bounds.size.width / 2, cy = bounds.origin.y + bounds.size.height / 2
        let radius = (bounds.size.width * bounds.size.width + bounds.size.height * bounds.size.height).squareRoot() / 2
        let reach = DisplayListBuilder.clipReach(of: item.world, from: Point(x: cx, y: cy), radius: radius, within: within)
        var clip = Transform3D()
        let rect: Rect
        if length > 1e-12 && length.isFinite {
            // u: the kept side's unit normal, t along the edge, o the
            // edge's point nearest the centre.
            let ux = a / length, uy = b / length
            let k = (a * cx + b * cy + c) / length
            let ox = cx - k * ux, oy = cy - k * uy
            clip.m11 = -uy; clip.m12 = ux
            clip.m21 = ux; clip.m22 = uy
            clip.m41 = ox; clip.m42 = oy
            rect = Rect(x: -reach, y: 0, width: 2 * reach, height: reach)
        } else {
            // Parallel to the layer (not reached for a cut layer): all or nothing.
            clip.m41 = cx; clip.m42 = cy
            rect = c >= 0 ? Rect(x: -reach, y: -reach, width: 2 * reach, height: 2 * reach) : .zero
        }
        append(.pushClip, clip.concatenating(item.world), rect, flags: 0)
    }

    /// How far from a cut layer's centre (cx, cy) its half-plane clips
    /// reach in its plane: to every point of the plane that `world` shows
    /// inside the output box `within`, so that sublayers far beyond the
    /// layer's bounds are drawn whole on their side. The box's corners are
    /// taken back onto the plane (z = 0); where one is not in front of the
    /// eye (the plane's horizon crosses the box) or the box is unbounded,
    /// the reach is `cap`. Never less than 4 half-diagonals + 64 points
    /// (what the layer itself draws: bounds, border, shadow), never more
    /// than `cap` (the clip's far corners stay in a float's precise range
    /// for backends that transform in single precision). The plugins clip
    /// quads in homogeneous space, so corners behind the eye are drawn right.
    static func clipReach(of world: Transform3D, from center: Point, radius: Double, within: ScreenBox,
                          cap: Double = 16384) -> Double {
        let least = 4 * radius + 64
        guard least < cap else { return least }
        guard within.x0.isFinite, within.y0.isFinite, within.x1.isFinite, within.y1.isFinite else { return cap }
        var farthest = 0.0
        for corner in 0..<4 {
            let X = corner == 0 || corner == 3 ? within.x0 : within.x1, Y = corner < 2 ? within.y0 : within.y1
            // x (m11 - X m14) + y (m21 - X m24) = X m44 - m41, and the same in Y.
            let a = world.m11 - X * world.m14, b = world.m21 - X * world.m24, e = X * world.m44 - world.m41
            let c = world.m12 - Y * world.m14, d = world.m22 - Y * world.m24, f = Y * world.m44 - world.m42
            let det = a * d - b * c
            guard abs(det) > 1e-12 else { return cap }
            let x = (e * d - b * f) / det, y = (a * f - e * c) / det
            guard x * world.m14 + y * world.m24 + world.m44 > 1e-12, x.isFinite, y.isFinite else { return cap }
            let dx = x - center.x, dy = y - center.y
            farthest = max(farthest, (dx * dx + dy * dy).squareRoot())
        }
        return min(cap, max(least, farthest + 64))
    }

    /// Collects the layers of one 3D space: `space` maps the parent's
    /// coordinates into the superlayer's (unflattened); nested transform
    /// layers add their sublayers to the same space. `next` becomes the
    /// media time at which an animation of a layer placed here next wants
    /// a frame, if earlier (`nextFrameTime`; the layers drawn note their
    /// own when visited; the transform layers here are not visited), none
    /// while its time stands still: `clock.frozen` (the layers above
    /// `children` have a speed of 0) or a speed of 0 of its own or between.
    static func gather(_ children: [RenderNode], sublayerTransform: Transform3D?, space: Transform3D,
                       base: Transform3D, opacity: Double, time: Double,
                       events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?, tint: Color?,
                       into items: inout [SpaceItem], next: inout Double, clock: SpaceClock) {
        let frozen = clock.frozen
        for child in children {
            let childFrozen = frozen || child.state.timing.speed == 0
            let childClock = SpaceClock(frozen: childFrozen, rate: clock.rate * child.state.timing.speed,
                                        frameTime: clock.frameTime)
            // (nested preservesDepth replicators multiply: cut at the limit)
            guard items.count < DisplayListBuilder.maximumSpaceItems else { return }
            let local = TimingModel.localTime(time, child.state.timing)
            var presented = child.state
            let isSpace = child.state.layerKind == .transform
            if !child.animations.isEmpty {
                // A transform layer is not visited, so its events are noted
                // here; any other layer's are noted when it is drawn.
                let change = withUnsafeMutablePointer(to: &presented) { p in
                    AnimationEvaluator.apply(child.animations, to: p, layerTime: local, model: child.statePointer,
                                             events: isSpace ? events : nil)
                }
                next = min(next, childClock.mediaTime(ofChange: change, layerTime: local))
            }
            guard !presented.hidden, presented.opacity > 0 else {
                // Not drawn: its animations' starts and ends, and those under
                // it, are noted as for any layer not drawn (noteUndrawn; a
                // transform layer's own, noted above, are noted only once).
                if let events {
                    let change = DisplayListBuilder.noteEvents(of: child, parentTime: time, events: events)
                    next = min(next, clock.mediaTime(ofChange: change, layerTime: time))
                }
                continue
            }
            var m = presented.transformToSuperlayerPlane
            if let st = sublayerTransform { m = m.concatenating(st) }
            m = m.concatenating(space)
            if isSpace {
                gather(child.children, sublayerTransform: presented.sublayerTransformAboutAnchor, space: m, base: base,
                       opacity: opacity * presented.opacity, time: local, events: events, tint: tint, into: &items,
                       next: &next, clock: childClock)
                continue
            }
            let b = presented.bounds
            let cx = b.origin.x + b.size.width / 2, cy = b.origin.y + b.size.height / 2
            let z = cx * m.m13 + cy * m.m23 + m.m43
            let w = cx * m.m14 + cy * m.m24 + m.m44
            let depth = w > 1e-12 ? z / w : -Double.infinity
            var quad: [SIMD3<Double>]? = []
            for (x, y) in [(b.minX, b.minY), (b.maxX, b.minY), (b.maxX, b.maxY), (b.minX, b.maxY)] {
                let cw = x * m.m14 + y * m.m24 + m.m44
                guard cw > 1e-9 else { quad = nil; break }
                quad?.append(SIMD3(x * m.m11 + y * m.m21 + m.m41, x * m.m12 + y * m.m22 + m.m42,
                                   x * m.m13 + y * m.m23 + m.m43) / cw)
            }
            var item = SpaceItem(node: child, world: m.flattened.concatenating(base), map: m, depth: depth,
                                 quad: quad, bounds: b, order: items.count, parentOpacity: opacity,
                                 parentTime: time, tint: tint, notesEvents: events != nil, frozen: frozen,
                                 rate: clock.rate)
            if presented.layerKind == .replicator && presented.replicator.preservesDepth && !child.children.isEmpty {
                // S7.5: "acts similarly to the CATransformLayer": in a shared
                // space its instances join the space, each sorted among the
                // other layers there; the replicator itself draws only its
                // own content, in its plane.
                item.contentOnly = true
                items.append(item)
                let r = presented.replicator
                // S4.6, S2.4: as in drawInstances, the sublayers' events
                // go with instance 0, or are noted here without it.
                if !r.drawsInstanceZero, let events {
                    let change = DisplayListBuilder.noteEvents(ofSublayers: child, time: local, events: events)
                    next = min(next, childClock.mediaTime(ofChange: change, layerTime: local))
                }
                let step = withUnsafeMutablePointer(to: &presented) { DisplayListBuilder.instanceStep($0) }
                let sublayerTransform = presented.sublayerTransformAboutAnchor
                var power = Transform3D.identity
                for n in 0..<r.drawnInstanceCount {
                    if items.count >= DisplayListBuilder.maximumSpaceItems { break }
                    let c = r.color(ofInstance: n)
                    if c.a > 0 {
                        gather(child.children, sublayerTransform: sublayerTransform,
                               space: n == 0 ? m : power.concatenating(m), base: base,
                               opacity: opacity * presented.opacity, time: local - Double(n) * r.instanceDelay,
                               events: n == 0 ? events : nil, tint: DisplayListBuilder.multiply(tint, c),
                               into: &items, next: &next, clock: childClock)
                    }
                    power = step.concatenating(power)
                }
                continue
            }
            items.append(item)
        }
    }

    /// How the time of the layers being gathered runs: whether it stands
    /// still, its rate against media time, and the frame's media time
    /// (`timeFrozen`, `timeRate`, `frameTime`).
    struct SpaceClock {
        let frozen: Bool
        let rate: Double
        let frameTime: Double

        func mediaTime(ofChange change: Double, layerTime: Double) -> Double {
            DisplayListBuilder.mediaTime(ofChange: change, layerTime: layerTime, rate: rate, frozen: frozen,
                                         frameTime: frameTime)
        }
    }
}
