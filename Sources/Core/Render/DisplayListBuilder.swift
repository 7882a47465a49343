import CLayerKit

/// Turns a layer tree into the backend's display list (S6.1): per layer,
/// back to front, background, contents, sublayers (clipped when
/// masksToBounds), border. Hidden and fully transparent subtrees and
/// culled back faces produce nothing. The op buffer is reused frame to frame.
public struct DisplayListBuilder: ~Copyable {
    private var ops: UnsafeMutablePointer<lk_dl_op>
    private var capacity: Int
    public private(set) var count = 0
    /// Whether an animation in the last list may still change what is drawn.
    public private(set) var animating = false
    /// Layers whose kind content was rasterized (not reused) since this builder began.
    public private(set) var rasterizations: UInt64 = 0
    /// Images named by the current list; kept alive until the next build.
    private var images: [Image] = []

    public init() {
        capacity = 256
        ops = .allocate(capacity: capacity)
    }

    deinit { ops.deallocate() }

    public var opsPointer: UnsafePointer<lk_dl_op> { UnsafePointer(ops) }

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
        guard let root else { return }
        visit(root, parent: Placement(world: .identity, sublayerTransform: nil, isRoot: true), parentOpacity: 1,
              parentTime: time, events: events)
    }

    /// The images the current list names (alive until the next build).
    var currentImages: [Image] { images }

    /// Op i, for tests and tools.
    public func op(_ i: Int) -> lk_dl_op { ops[i] }

    /// Where a node lands: its transform to the output, from its superlayer's.
    private struct Placement {
        var world: Transform3D
        /// The superlayer's sublayerTransform about its anchor; nil for identity.
        var sublayerTransform: Transform3D?
        var isRoot: Bool
    }

    private mutating func visit(_ node: RenderNode, parent: Placement, parentOpacity: Double, parentTime: Double,
                                events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?) {
        let time = TimingModel.localTime(parentTime, node.state.timing)
        if node.animations.isEmpty {
            // Fields are read in place: copying the whole LayerState would
            // retain and release its object references for every layer.
            withUnsafeMutablePointer(to: &node.state) { s in
                visit(node, s, parent: parent, parentOpacity: parentOpacity, time: time, events: events)
            }
        } else {
            // Animations apply once per frame; geometry and appearance both use the result.
            var presented = node.state
            withUnsafeMutablePointer(to: &presented) { s in
                let running = withUnsafeMutablePointer(to: &node.state) { model in
                    AnimationEvaluator.apply(node.animations, to: s, layerTime: time, model: model, events: events)
                }
                if running { animating = true }
                visit(node, s, parent: parent, parentOpacity: parentOpacity, time: time, events: events)
            }
        }
    }

    private static func world(of s: UnsafeMutablePointer<LayerState>, in parent: Placement) -> Transform3D {
        if parent.isRoot { return s.pointee.transformToSuperlayer(through: nil) }
        if parent.sublayerTransform == nil && s.pointee.transform.isIdentity {
            // The common case: a plain offset in the superlayer's plane.
            let b = s.pointee.bounds, anchor = s.pointee.anchorPoint, p = s.pointee.position
            return parent.world.preTranslated(p.x - b.origin.x - anchor.x * b.size.width,
                                              p.y - b.origin.y - anchor.y * b.size.height)
        }
        return s.pointee.transformToSuperlayer(through: parent.sublayerTransform).concatenating(parent.world)
    }

    private mutating func visit(_ node: RenderNode, _ s: UnsafeMutablePointer<LayerState>, parent: Placement,
                                parentOpacity: Double, time: Double,
                                events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?) {
        guard !s.pointee.hidden else { return }
        let opacity = parentOpacity * s.pointee.opacity
        guard opacity > 0 else { return }
        let world = DisplayListBuilder.world(of: s, in: parent)
        if !s.pointee.doubleSided && DisplayListBuilder.isBackFacing(world) { return }
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
        if s.pointee.kindStorage != nil,
           let content = ContentCache.content(for: s, cache: &node.content, rasterizations: &rasterizations) {
            // A special layer's drawing (S7.1-S7.3) over its contents.
            images.append(content.image)
            append(.image, world, content.rect, opacity: opacity, image: content.image,
                   source: Rect(x: 0, y: 0, width: Double(content.image.width), height: Double(content.image.height)))
        }
        let children = node.children
        if !children.isEmpty {
            let placement = Placement(world: world, sublayerTransform: s.pointee.sublayerTransformAboutAnchor, isRoot: false)
            for child in drawingOrder(children, zPosition: { $0.state.zPosition }) {
                visit(child, parent: placement, parentOpacity: opacity, parentTime: time, events: events)
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

    private mutating func appendContents(_ image: Image, of s: UnsafeMutablePointer<LayerState>, world: Transform3D,
                                         opacity: Double) {
        guard let placement = ContentsPlacement.place(imageWidth: image.width, imageHeight: image.height,
                                                      in: s.pointee.bounds, contentsRect: s.pointee.contentsRect,
                                                      gravity: s.pointee.contentsGravity,
                                                      scale: s.pointee.contentsScale) else { return }
        images.append(image)
        append(.image, world, placement.destination, opacity: opacity, image: image, source: placement.source)
    }

    /// A layer faces away when its plane's map to the screen reverses
    /// orientation (S6.1): the homography's determinant is negative (its sign
    /// holds wherever w > 0, that is, wherever the layer is visible).
    static func isBackFacing(_ world: Transform3D) -> Bool {
        Homography(world).determinant < 0
    }

    private enum Kind: UInt32 {
        case fill = 1, image = 2, border = 3, pushClip = 4, popClip = 5
    }

    private mutating func append(_ kind: Kind, _ world: Transform3D, _ rect: Rect, radius: Double = 0,
                                 borderWidth: Double = 0, color: Color = .clear, opacity: Double = 1,
                                 image: Image? = nil, source: Rect = .zero) {
        if count == capacity {
            let bigger = UnsafeMutablePointer<lk_dl_op>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: ops, count: count)
            ops.deallocate()
            ops = bigger
            capacity *= 2
        }
        let a = Float(color.a)
        ops[count] = lk_dl_op(
            kind: kind.rawValue,
            flags: LK_DL_FLAG_ANTIALIAS.rawValue,
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
            shadow_color: lk_dl_color(r: 0, g: 0, b: 0, a: 0),
            shadow_offset_x: 0, shadow_offset_y: 0, shadow_sigma: 0)
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
