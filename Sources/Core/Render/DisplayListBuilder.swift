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
        // Fields are read in place: copying the whole LayerState would retain
        // and release its object references for every layer of every frame.
        guard !layer.state.hidden else { return }
        let opacity = parentOpacity * layer.state.opacity
        guard opacity > 0 else { return }
        if !layer.state.doubleSided && DisplayListBuilder.isBackFacing(world) { return }
        let bounds = layer.state.bounds
        let radius = layer.state.cornerRadius
        let masks = layer.state.masksToBounds

        if let color = layer.state.backgroundColor, color.a > 0 {
            append(.fill, world, bounds, radius: radius, color: color, opacity: opacity)
        }
        if masks {
            append(.pushClip, world, bounds, radius: radius)
        }
        if let image = layer.state.contents {
            appendContents(image, of: layer, world: world, opacity: opacity)
        }
        let sublayers = layer.sublayers
        if !sublayers.isEmpty {
            let sublayerTransform = layer.state.sublayerTransformAboutAnchor
            let ordered = sublayers.contains(where: { $0.state.zPosition != 0 }) ? layer.sublayersInDrawingOrder : sublayers
            for sublayer in ordered {
                let childWorld: Transform3D
                if sublayerTransform == nil && sublayer.state.transform.isIdentity {
                    // The common case: a plain offset in the superlayer's plane.
                    let b = sublayer.state.bounds, anchor = sublayer.state.anchorPoint, p = sublayer.state.position
                    childWorld = world.preTranslated(p.x - b.origin.x - anchor.x * b.size.width,
                                                     p.y - b.origin.y - anchor.y * b.size.height)
                } else {
                    var local = sublayer.state.transformToSuperlayerPlane
                    if let st = sublayerTransform { local = local.concatenating(st) }
                    childWorld = local.flattened.concatenating(world)
                }
                visit(sublayer, world: childWorld, parentOpacity: opacity)
            }
        }
        if masks {
            append(.popClip, world, bounds)
        }
        let borderWidth = layer.state.borderWidth
        if borderWidth > 0 {
            let color = layer.state.borderColor
            if color.a > 0 {
                append(.border, world, bounds, radius: radius, borderWidth: borderWidth, color: color, opacity: opacity)
            }
        }
    }

    private mutating func appendContents(_ image: Image, of layer: Layer, world: Transform3D, opacity: Double) {
        guard let placement = ContentsPlacement.place(imageWidth: image.width, imageHeight: image.height,
                                                      in: layer.state.bounds, contentsRect: layer.state.contentsRect,
                                                      gravity: layer.state.contentsGravity,
                                                      scale: layer.state.contentsScale) else { return }
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
