import CLayerKit

/// Turns a layer tree into the backend's display list (S6.1): per layer,
/// back to front, background, contents, sublayers (clipped when
/// masksToBounds), border. Hidden and fully transparent subtrees and
/// culled back faces produce nothing. The op buffer is reused frame to frame.
public struct DisplayListBuilder: ~Copyable {
    private var ops: UnsafeMutablePointer<lk_dl_op>
    private var capacity: Int
    public private(set) var count = 0
    /// Images named by the current list; kept alive until the next build.
    private var images: [Image] = []

    public init() {
        capacity = 256
        ops = .allocate(capacity: capacity)
    }

    deinit { ops.deallocate() }

    public var opsPointer: UnsafePointer<lk_dl_op> { UnsafePointer(ops) }

    /// Builds the list for `root` placed in output space (S1.0).
    public mutating func build(root: Layer?) {
        count = 0
        images.removeAll(keepingCapacity: true)
        guard let root else { return }
        let world = root.state.transformToSuperlayerPlane.flattened
        visit(root, world: world, parentOpacity: 1)
    }

    /// Op i, for tests and tools.
    public func op(_ i: Int) -> lk_dl_op { ops[i] }

    private mutating func visit(_ layer: Layer, world: Transform3D, parentOpacity: Double) {
        let s = layer.state
        guard !s.hidden else { return }
        let opacity = parentOpacity * s.opacity
        guard opacity > 0 else { return }
        if !s.doubleSided && DisplayListBuilder.isBackFacing(world) { return }

        if let color = s.backgroundColor, color.a > 0 {
            append(.fill, world, s.bounds, radius: s.cornerRadius, color: color, opacity: opacity)
        }
        if s.masksToBounds {
            append(.pushClip, world, s.bounds, radius: s.cornerRadius)
        }
        if let image = s.contents,
           let placement = ContentsPlacement.place(imageWidth: image.width, imageHeight: image.height, in: s.bounds,
                                                   contentsRect: s.contentsRect, gravity: s.contentsGravity,
                                                   scale: s.contentsScale) {
            images.append(image)
            append(.image, world, placement.destination, opacity: opacity, image: image, source: placement.source)
        }
        if !layer.sublayers.isEmpty {
            let sublayerTransform = s.sublayerTransformAboutAnchor
            for sublayer in layer.sublayersInDrawingOrder {
                let c = sublayer.state
                let childWorld: Transform3D
                if c.transform.isIdentity && sublayerTransform == nil {
                    // The common case: a plain offset in the superlayer's plane.
                    let a = c.anchorInBounds
                    childWorld = world.preTranslated(c.position.x - a.x, c.position.y - a.y)
                } else {
                    var local = c.transformToSuperlayerPlane
                    if let st = sublayerTransform { local = local.concatenating(st) }
                    childWorld = local.flattened.concatenating(world)
                }
                visit(sublayer, world: childWorld, parentOpacity: opacity)
            }
        }
        if s.masksToBounds {
            append(.popClip, world, s.bounds)
        }
        if s.borderWidth > 0, s.borderColor.a > 0 {
            append(.border, world, s.bounds, radius: s.cornerRadius, borderWidth: s.borderWidth,
                   color: s.borderColor, opacity: opacity)
        }
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
            source: lk_dl_rect(x: source.origin.x, y: source.origin.y, width: source.size.width, height: source.size.height))
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
