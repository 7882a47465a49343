import CLayerKit
import Glibc

/// The part of the output a frame changes (issue: damage): the display list
/// is compared with the previous frame's, op by op; the screen boxes of ops
/// that differ, before and after, are united, grown by the shadows of the
/// groups around them (offset and 3 sigma). A group whose opacity or shadow
/// changes damages all it covers; a clip that changes (a masksToBounds layer
/// moved or resized, a cut layer's pieces turning) damages what it clips,
/// before and after. Spans whose number of ops may change (particles, a 3D
/// space's cut pieces) are compared op by op while their ops keep their
/// number and kinds; otherwise everything each span draws, before and
/// after, is damaged. Any other change of structure (op count, an op's
/// kind) damages everything. Backends then redraw only the box.
struct DamageTracker: ~Copyable {
    private var previous: UnsafeMutablePointer<lk_dl_op>
    private var capacity = 0
    private var previousCount = -1   // no previous frame yet
    /// Images named by the previous frame, kept alive so their ids can be compared.
    private var previousImages: [Image] = []
    /// The stops of the previous frame's GRADIENT ops, copied (the builder
    /// reuses its stop storage), and where each op's begin.
    private var previousStops: [lk_dl_gradient_stop] = []
    private var previousStopStart: [Int] = []
    private var previousRuns: [Range<Int>] = []
    /// What each of the previous frame's runs drew, when that frame worked
    /// it out (nil: it did not), so that a run that changes again is not
    /// measured twice: a run of 10,000 particles took 20,000 screen boxes a
    /// frame.
    private var previousRunBoxes: [ScreenBox?] = []

    init() { previous = .allocate(capacity: 1) }
    deinit { previous.deallocate() }

    /// The damage of `ops` against the previous frame, then remembers them.
    /// `runs`: spans of ops whose number may change frame to frame (an
    /// emitter's particles, S7.4; a 3D space's pieces, S6.3). A run with
    /// as many ops of the same kinds as before is compared one to one, as
    /// the ops around it; otherwise it damages what its ops draw, now and
    /// before. The ops around runs are compared one to one, as long as both
    /// frames have as many runs and as many ops outside them.
    mutating func damage(ops: UnsafePointer<lk_dl_op>, count: Int, images: [Image], width: Int, height: Int,
                         runs: [Range<Int>] = []) -> lk_dl_box {
        let full = lk_dl_box(x: 0, y: 0, width: Int32(width), height: Int32(height))
        // A box holding all of this is the whole output, however much more
        // is united with it (the damage is clipped to the output): the work
        // stops there.
        let output = ScreenBox(x0: 0, y0: 0, x1: Double(width), y1: Double(height))
        var box = ScreenBox.empty
        var runBoxes = [ScreenBox?](repeating: nil, count: runs.count)
        let outside = count - runs.reduce(0) { $0 + $1.count }
        let outsideBefore = previousCount - previousRuns.reduce(0) { $0 + $1.count }
        var whole = previousCount < 0 || runs.count != previousRuns.count || outside != outsideBefore
        // The shadows of the groups around op i, before and after: what an op
        // changes inside a group casting a shadow, its shadow changes too.
        var shadows: [(now: lk_dl_op, before: lk_dl_op)] = []
        // Per open clip, whether it or one around it changed: then every op
        // inside may show more or less of itself, within its own boxes.
        var clips: [Bool] = []
        if !whole {
            var i = 0, j = 0, k = 0
            while i < count || k < runs.count {
                if k < runs.count, i >= runs[k].lowerBound {
                    // The run moved among the other ops: no telling what changed.
                    guard j == previousRuns[k].lowerBound else { whole = true; break }
                    let run = runs[k], before = previousRuns[k]
                    k += 1
                    // Its ops line up with the previous frame's: compared
                    // one to one below, clips and groups included.
                    if sameKinds(ops, run, before) { continue }
                    let drawn = DamageTracker.drawnUnion(ops, run, upTo: output)
                    runBoxes[k - 1] = drawn
                    var changed = drawn
                    if !changed.contains(output) {
                        let drewBefore = k - 1 < previousRunBoxes.count ? previousRunBoxes[k - 1] : nil
                        changed = changed.union(drewBefore ?? DamageTracker.drawnUnion(previous, before, upTo: output))
                    }
                    for (n, b) in shadows.reversed() {
                        changed = DamageTracker.withShadow(changed, n).union(DamageTracker.withShadow(changed, b))
                    }
                    box = box.union(changed)
                    i = run.upperBound
                    j = before.upperBound
                    if box.contains(output) { break }
                    continue
                }
                let now = ops[i], before = previous[j]
                i += 1
                j += 1
                guard now.kind == before.kind else { whole = true; break }
                let clipChanged = clips.last ?? false
                switch now.kind {
                case LK_DL_OP_PUSH_GROUP.rawValue:
                    shadows.append((now, before))
                    // A group's rect only bounds its ops, which carry their own
                    // damage; how it composites (or is clipped) changes every
                    // pixel it covers.
                    if clipChanged || !DamageTracker.sameComposite(now, before) {
                        box = box.union(DamageTracker.groupBox(now)).union(DamageTracker.groupBox(before))
                    }
                    continue
                case LK_DL_OP_POP_GROUP.rawValue:
                    if !shadows.isEmpty { shadows.removeLast() }
                    continue
                case LK_DL_OP_GROUP_CONTENT.rawValue:
                    continue
                case LK_DL_OP_PUSH_CLIP.rawValue:
                    clips.append(clipChanged || !DamageTracker.same(now, before))
                    continue
                case LK_DL_OP_POP_CLIP.rawValue:
                    if !clips.isEmpty { clips.removeLast() }
                    continue
                default:
                    break
                }
                if !clipChanged && DamageTracker.same(now, before) && sameGradient(now, previousIndex: j - 1) { continue }
                var changed = DamageTracker.screenBox(of: now).union(DamageTracker.screenBox(of: before))
                for (n, b) in shadows.reversed() {
                    changed = DamageTracker.withShadow(changed, n).union(DamageTracker.withShadow(changed, b))
                }
                box = box.union(changed)
                if box.contains(output) { break }
            }
        }
        remember(ops: ops, count: count, images: images)
        previousRuns = runs
        previousRunBoxes = runBoxes
        if whole { return full }
        guard !box.isEmpty else { return lk_dl_box(x: 0, y: 0, width: 0, height: 0) }
        guard box.x0.isFinite, box.y0.isFinite, box.x1.isFinite, box.y1.isFinite else { return full }
        // One pixel of margin for anti-aliased edges and filtering.
        let x0 = Int32(max(0, min(Double(width), (box.x0 - 1).rounded(.down))))
        let y0 = Int32(max(0, min(Double(height), (box.y0 - 1).rounded(.down))))
        let x1 = Int32(max(0, min(Double(width), (box.x1 + 1).rounded(.up))))
        let y1 = Int32(max(0, min(Double(height), (box.y1 + 1).rounded(.up))))
        guard x1 > x0, y1 > y0 else { return lk_dl_box(x: 0, y: 0, width: 0, height: 0) }
        return lk_dl_box(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The run `now` has as many ops as `before` had, of the same kinds in
    /// the same order.
    private func sameKinds(_ ops: UnsafePointer<lk_dl_op>, _ now: Range<Int>, _ before: Range<Int>) -> Bool {
        guard now.count == before.count else { return false }
        var j = before.lowerBound
        for i in now {
            guard ops[i].kind == previous[j].kind else { return false }
            j += 1
        }
        return true
    }

    /// The union of what the ops at `range` of `list` draw, its work stopped
    /// once it holds all of `limit` (the output: more changes no damage).
    private static func drawnUnion(_ list: UnsafePointer<lk_dl_op>, _ range: Range<Int>,
                                   upTo limit: ScreenBox) -> ScreenBox {
        var union = ScreenBox.empty
        var n = range.lowerBound
        while n < range.upperBound {
            let end = min(n + 64, range.upperBound)
            while n < end {
                union = union.union(drawnBox(of: list[n]))
                n += 1
            }
            if union.contains(limit) { break }
        }
        return union
    }

    /// All that an op in a run can draw: a drawing op's screen box, a
    /// group's rect and shadow. Clips draw nothing themselves, and what
    /// they cut is inside the boxes of the ops they clip.
    private static func drawnBox(of op: lk_dl_op) -> ScreenBox {
        switch op.kind {
        case LK_DL_OP_PUSH_GROUP.rawValue: return groupBox(op)
        case LK_DL_OP_POP_GROUP.rawValue, LK_DL_OP_GROUP_CONTENT.rawValue, LK_DL_OP_PUSH_CLIP.rawValue,
             LK_DL_OP_POP_CLIP.rawValue:
            return .empty
        default: return screenBox(of: op)
        }
    }

    /// b grown by where the group's shadow can carry it (unchanged without one).
    private static func withShadow(_ b: ScreenBox, _ group: lk_dl_op) -> ScreenBox {
        guard group.shadow_color.a > 0 else { return b }
        let sigma = group.shadow_sigma.isFinite ? max(group.shadow_sigma, 0) : .infinity
        return b.withShadow(dx: group.shadow_offset_x, dy: group.shadow_offset_y, reach: 3 * sigma + 2)
    }

    /// All a group can draw: its rect and its shadow.
    private static func groupBox(_ group: lk_dl_op) -> ScreenBox {
        let r = group.rect
        return withShadow(ScreenBox(x0: r.x, y0: r.y, x1: r.x + r.width, y1: r.y + r.height), group)
    }

    /// Same compositing of a group's content: everything but its rect.
    private static func sameComposite(_ a: lk_dl_op, _ b: lk_dl_op) -> Bool {
        a.flags == b.flags && a.opacity == b.opacity && a.shadow_color.r == b.shadow_color.r
            && a.shadow_color.g == b.shadow_color.g && a.shadow_color.b == b.shadow_color.b
            && a.shadow_color.a == b.shadow_color.a && a.shadow_offset_x == b.shadow_offset_x
            && a.shadow_offset_y == b.shadow_offset_y && a.shadow_sigma == b.shadow_sigma
    }

    private mutating func remember(ops: UnsafePointer<lk_dl_op>, count: Int, images: [Image]) {
        if capacity < count {
            previous.deallocate()
            capacity = max(count, capacity * 2)
            previous = .allocate(capacity: capacity)
        }
        previous.update(from: ops, count: count)
        previousCount = count
        previousImages = images
        previousStops.removeAll(keepingCapacity: true)
        previousStopStart.removeAll(keepingCapacity: true)
        for i in 0..<count {
            previousStopStart.append(previousStops.count)
            let op = ops[i]
            if op.kind == LK_DL_OP_GRADIENT.rawValue, let stops = op.gradient_stops {
                previousStops.append(contentsOf: UnsafeBufferPointer(start: stops, count: Int(op.gradient_stop_count)))
            }
        }
    }

    /// Same gradient (always true for other kinds): kind, points and stops.
    private func sameGradient(_ a: lk_dl_op, previousIndex i: Int) -> Bool {
        guard a.kind == LK_DL_OP_GRADIENT.rawValue else { return true }
        let b = previous[i]
        guard a.gradient_kind == b.gradient_kind, a.gradient_stop_count == b.gradient_stop_count,
              a.gradient_start_x == b.gradient_start_x, a.gradient_start_y == b.gradient_start_y,
              a.gradient_end_x == b.gradient_end_x, a.gradient_end_y == b.gradient_end_y,
              let stops = a.gradient_stops else { return false }
        let first = previousStopStart[i]
        for k in 0..<Int(a.gradient_stop_count) {
            let x = stops[k], y = previousStops[first + k]
            guard x.location == y.location, x.color.r == y.color.r, x.color.g == y.color.g, x.color.b == y.color.b,
                  x.color.a == y.color.a else { return false }
        }
        return true
    }

    /// Same drawing: every field equal, images compared by id and generation.
    private static func same(_ a: lk_dl_op, _ b: lk_dl_op) -> Bool {
        guard a.kind == b.kind, a.flags == b.flags, a.opacity == b.opacity,
              a.corner_radius == b.corner_radius, a.border_width == b.border_width,
              a.color.r == b.color.r, a.color.g == b.color.g, a.color.b == b.color.b, a.color.a == b.color.a,
              a.rect.x == b.rect.x, a.rect.y == b.rect.y, a.rect.width == b.rect.width, a.rect.height == b.rect.height,
              a.source.x == b.source.x, a.source.y == b.source.y, a.source.width == b.source.width,
              a.source.height == b.source.height,
              a.tint.r == b.tint.r, a.tint.g == b.tint.g, a.tint.b == b.tint.b, a.tint.a == b.tint.a else { return false }
        // Byte for byte, as one memcmp (a byte-wise sequence compare was
        // 128 steps an op).
        let sameTransform = withUnsafeBytes(of: a.transform) { x in
            withUnsafeBytes(of: b.transform) { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
        guard sameTransform else { return false }
        switch (a.image, b.image) {
        case (nil, nil): return true
        case let (x?, y?): return x.pointee.id == y.pointee.id && x.pointee.generation == y.pointee.generation
        default: return false
        }
    }

    /// The op's rect on screen, unbounded when part of it is behind the viewer.
    private static func screenBox(of op: lk_dl_op) -> ScreenBox {
        let t = withUnsafeBytes(of: op.transform) { Transform3D($0.bindMemory(to: Double.self)) }
        let r = op.rect
        return ScreenBox(t, Rect(x: r.x, y: r.y, width: r.width, height: r.height))
    }
}
