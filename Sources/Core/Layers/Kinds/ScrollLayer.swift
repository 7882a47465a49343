/// CAScrollLayer (S7.7): scrolling is a change of bounds.origin, so it
/// animates implicitly through the "bounds" action like any bounds change.
public struct ScrollState: KindState {
    public static var kind: LayerKind { .scroll }
    public var scrollMode = ScrollMode.both
    public init() {}
}

/// The axes a scroll layer may scroll along; names are Core Animation's
/// (kCAScrollNone, kCAScrollVertically, kCAScrollHorizontally, kCAScrollBoth).
public enum ScrollMode: Int32, NamedValue, Sendable {
    case none = 0, vertically, horizontally, both
    public var name: String { ["none", "vertically", "horizontally", "both"][Int(rawValue)] }
    var scrollsX: Bool { self == .horizontally || self == .both }
    var scrollsY: Bool { self == .vertically || self == .both }
}

extension LayerState {
    public var scroll: ScrollState {
        get { kindState(ScrollState.self) }
        set { setKindState(newValue) }
    }
}

public enum ScrollProperties {
    /// Not animatable, as in Core Animation.
    public static let scrollMode = Property("scrollMode", \LayerState.scroll.scrollMode, animatable: false,
                                            effect: .none, kind: .scroll)
    static let byKey: [String: AnyProperty] = [scrollMode.key: scrollMode.erased]
}

extension Layer {
    /// scrollToPoint: bounds.origin becomes `p` along the axes scrollMode
    /// allows; the other coordinate is kept.
    public func scroll(toPoint p: Point) throws(LayerKitError) {
        try checkKind(.scroll, "scrollToPoint")
        guard p.isFinite else { throw .invalid("p: \(describe(p.value)) is not finite") }
        let mode = state.scroll.scrollMode
        var b = state.bounds
        if mode.scrollsX { b.origin.x = p.x }
        if mode.scrollsY { b.origin.y = p.y }
        try set(LayerProperties.bounds, b)
    }

    /// scrollToRect: the least scroll (along the allowed axes) that makes `r`
    /// visible, as NSView's scrollRectToVisible: nothing moves when it is
    /// visible already; a rect larger than the bounds shows its top left.
    public func scroll(toRect r: Rect) throws(LayerKitError) {
        try checkKind(.scroll, "scrollToRect")
        guard r.isFinite else { throw .invalid("r: \(describe(r.value)) is not finite") }
        let b = state.bounds
        func axis(_ lo: Double, _ hi: Double, _ origin: Double, _ extent: Double) -> Double {
            if hi - lo > extent || lo < origin { return lo }
            if hi > origin + extent { return hi - extent }
            return origin
        }
        let p = Point(x: axis(r.minX, r.maxX, b.origin.x, b.size.width),
                      y: axis(r.minY, r.maxY, b.origin.y, b.size.height))
        try scroll(toPoint: p)
    }

    /// The nearest scroll layer above this one (not this layer itself).
    var enclosingScrollLayer: Layer? {
        var node = superlayer
        while let current = node {
            if current.state.layerKind == .scroll { return current }
            node = current.superlayer
        }
        return nil
    }

    /// scrollPoint: scrolls the nearest scroll layer ancestor so that `p`
    /// (in this layer's coordinates) lands at its origin; nothing happens
    /// without one (as in Core Animation).
    public func scrollPoint(_ p: Point) throws(LayerKitError) {
        try checkWritable()
        guard p.isFinite else { throw .invalid("p: \(describe(p.value)) is not finite") }
        guard let scroller = enclosingScrollLayer else { return }
        try scroller.scroll(toPoint: try Layer.convert(p, from: self, to: scroller))
    }

    /// scrollRectToVisible: the same for a rect (its bounding box in the
    /// scroll layer's coordinates).
    public func scrollRectToVisible(_ r: Rect) throws(LayerKitError) {
        try checkWritable()
        guard r.isFinite else { throw .invalid("r: \(describe(r.value)) is not finite") }
        guard let scroller = enclosingScrollLayer else { return }
        try scroller.scroll(toRect: try Layer.convert(r, from: self, to: scroller))
    }

    /// visibleRect: the bounds less what the scroll layers above clip away,
    /// in this layer's coordinates (each scroll layer's bounds converted
    /// here, as a bounding box). Empty (zero) when nothing is visible.
    public var visibleRect: Rect {
        var visible = state.bounds
        var node = superlayer
        while let current = node {
            if current.state.layerKind == .scroll,
               let r = try? Layer.convert(current.state.bounds, from: current, to: self) {
                guard let clipped = visible.intersection(r) else { return Rect(origin: visible.origin, size: .zero) }
                visible = clipped
            }
            node = current.superlayer
        }
        return visible
    }
}

extension Rect {
    /// The overlap of two rects, nil when they do not overlap.
    func intersection(_ other: Rect) -> Rect? {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 >= x0, y1 >= y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
