import CLayerKit

/// The part of the output a frame changes (issue: damage): the display list
/// is compared with the previous frame's, op by op; the screen boxes of ops
/// that differ, before and after, are united. A change of structure (op
/// count or a clip) damages everything. Backends then redraw only the box.
struct DamageTracker: ~Copyable {
    private var previous: UnsafeMutablePointer<lk_dl_op>
    private var capacity = 0
    private var previousCount = -1   // no previous frame yet
    /// Images named by the previous frame, kept alive so their ids can be compared.
    private var previousImages: [Image] = []

    init() { previous = .allocate(capacity: 1) }
    deinit { previous.deallocate() }

    /// The damage of `ops` against the previous frame, then remembers them.
    mutating func damage(ops: UnsafePointer<lk_dl_op>, count: Int, images: [Image], width: Int, height: Int) -> lk_dl_box {
        let full = lk_dl_box(x: 0, y: 0, width: Int32(width), height: Int32(height))
        var box: (x0: Double, y0: Double, x1: Double, y1: Double)? = nil
        var whole = previousCount != count
        if !whole {
            for i in 0..<count where !DamageTracker.same(ops[i], previous[i]) {
                if ops[i].kind == LK_DL_OP_PUSH_CLIP.rawValue || ops[i].kind == LK_DL_OP_POP_CLIP.rawValue {
                    whole = true
                    break
                }
                for op in [ops[i], previous[i]] {
                    guard let b = DamageTracker.screenBox(of: op) else { whole = true; break }
                    box = box.map { (min($0.x0, b.x0), min($0.y0, b.y0), max($0.x1, b.x1), max($0.y1, b.y1)) } ?? b
                }
                if whole { break }
            }
        }
        remember(ops: ops, count: count, images: images)
        if whole { return full }
        guard let b = box else { return lk_dl_box(x: 0, y: 0, width: 0, height: 0) }
        // One pixel of margin for anti-aliased edges and filtering.
        let x0 = max(0, Int32((b.x0 - 1).rounded(.down))), y0 = max(0, Int32((b.y0 - 1).rounded(.down)))
        let x1 = min(Int32(width), Int32((b.x1 + 1).rounded(.up))), y1 = min(Int32(height), Int32((b.y1 + 1).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return lk_dl_box(x: 0, y: 0, width: 0, height: 0) }
        return lk_dl_box(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
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
    }

    /// Same drawing: every field equal, images compared by id and generation.
    private static func same(_ a: lk_dl_op, _ b: lk_dl_op) -> Bool {
        guard a.kind == b.kind, a.flags == b.flags, a.opacity == b.opacity,
              a.corner_radius == b.corner_radius, a.border_width == b.border_width,
              a.color.r == b.color.r, a.color.g == b.color.g, a.color.b == b.color.b, a.color.a == b.color.a,
              a.rect.x == b.rect.x, a.rect.y == b.rect.y, a.rect.width == b.rect.width, a.rect.height == b.rect.height,
              a.source.x == b.source.x, a.source.y == b.source.y, a.source.width == b.source.width,
              a.source.height == b.source.height else { return false }
        let sameTransform = withUnsafeBytes(of: a.transform) { x in
            withUnsafeBytes(of: b.transform) { y in x.elementsEqual(y) }
        }
        guard sameTransform else { return false }
        switch (a.image, b.image) {
        case (nil, nil): return true
        case let (x?, y?): return x.pointee.id == y.pointee.id && x.pointee.generation == y.pointee.generation
        default: return false
        }
    }

    /// The op's rect on screen, or nil when part of it is behind the viewer.
    private static func screenBox(of op: lk_dl_op) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        let t = withUnsafeBytes(of: op.transform) { Transform3D(Array($0.bindMemory(to: Double.self))) }
        let r = op.rect
        var box: (x0: Double, y0: Double, x1: Double, y1: Double)? = nil
        for (x, y) in [(r.x, r.y), (r.x + r.width, r.y), (r.x + r.width, r.y + r.height), (r.x, r.y + r.height)] {
            guard let p = t.project(Point(x: x, y: y)), p.x.isFinite, p.y.isFinite else { return nil }
            box = box.map { (min($0.x0, p.x), min($0.y0, p.y), max($0.x1, p.x), max($0.y1, p.y)) } ?? (p.x, p.y, p.x, p.y)
        }
        return box
    }
}
