/// Plain fills and clips far larger than the output, cut to a guard band
/// around it once, in double precision, before any backend sees them
/// (docs/rendering.md, "Extreme transforms").
///
/// A layer turned and scaled by 1e21 has output corners near 1e22 pixels
/// out, where a double's step is millions of pixels: the backends' clipping
/// of such a quad to the output (the software rasterizer's, in homogeneous
/// space) put the cut points wherever that rounding left them, and about a
/// fifth of a frame the layer covered was left unpainted. Here the band's
/// corners, small numbers, are mapped into the layer instead, and the op
/// becomes the part of its rect whose output box holds the band's part of
/// it, under a transform with a unit-sized linear part and the band's
/// centre as its translation: every output coordinate a backend computes
/// from it is within a few band sizes of the output.
enum GuardBand {
    /// Ops whose output box stays this close to the output are left as
    /// they are (every ordinary scene: the cut changes no pixel of them).
    static let reach = 65_536.0
    /// How far outside the output (and what shadows bring into it) a cut
    /// edge lies: beyond antialiasing's half pixel and any rounding.
    static let margin = 8.0

    enum Cut: Equatable {
        /// Draw the op as it is.
        case keep
        /// Nothing of it is within the band (or its transform is not finite).
        case empty
        /// The same pixels within the band, from this transform and rect.
        case cut(Transform3D, Rect)
    }

    /// Whether `rect` under `world` reaches past `reach` from a finite
    /// `output` (or cannot be placed): the ops `cut` is for.
    static func reachesFar(_ world: Transform3D, _ rect: Rect, output: ScreenBox) -> Bool {
        guard output.x0.isFinite, output.y0.isFinite, output.x1.isFinite, output.y1.isFinite else { return false }
        let far = ScreenBox(x0: output.x0 - reach, y0: output.y0 - reach, x1: output.x1 + reach, y1: output.y1 + reach)
        if world.m14 == 0 && world.m24 == 0 && world.m44 == 1 {
            // Affine (every 2D scene): a bound on the corners' reach from
            // the translation, without mapping the four corners.
            let ex = max(abs(rect.minX), abs(rect.maxX)), ey = max(abs(rect.minY), abs(rect.maxY))
            let rx = abs(world.m11) * ex + abs(world.m21) * ey, ry = abs(world.m12) * ex + abs(world.m22) * ey
            if world.m41 - rx >= far.x0 && world.m41 + rx <= far.x1 && world.m42 - ry >= far.y0 && world.m42 + ry <= far.y1 {
                return false
            }
        }
        return !far.contains(ScreenBox(world, rect))
    }

    /// The op of `rect` under `world`, cut to `band` (output pixels). Only
    /// for ops whose look does not depend on the rect's size in its own
    /// space: a fill or clip without corner radius or border. Perspective
    /// maps are kept (the backends clip them against w > 0 in homogeneous
    /// space).
    static func cut(_ world: Transform3D, _ rect: Rect, band: ScreenBox) -> Cut {
        guard world.isFinite, rect.isFinite else { return .empty }
        guard band.x0.isFinite, band.y0.isFinite, band.x1.isFinite, band.y1.isFinite else { return .keep }
        guard world.m14 == 0, world.m24 == 0, world.m44 > 0 else { return .keep }
        // Output point p = (x, y) A + t for a local point (x, y) (row vectors).
        let w = world.m44
        let a = world.m11 / w, b = world.m12 / w, c = world.m21 / w, d = world.m22 / w
        let tx = world.m41 / w, ty = world.m42 / w
        let s = max(abs(a), abs(b), abs(c), abs(d))
        guard s.isFinite, tx.isFinite, ty.isFinite else { return .empty }
        // A zero-area layer shows nothing.
        guard s > 0 else { return .empty }
        // A = s An: An's entries are at most 1 and its inverse is taken
        // without overflow at any scale; local points are carried times s.
        let an = a / s, bn = b / s, cn = c / s, dn = d / s
        let det = an * dn - bn * cn
        guard det != 0, det.isFinite else { return .empty }
        func scaledLocal(_ x: Double, _ y: Double) -> (Double, Double) {
            ((x * dn - y * cn) / det, (y * an - x * bn) / det)
        }
        let qx = 0.5 * (band.x0 + band.x1), qy = 0.5 * (band.y0 + band.y1)
        // The local point (times s) that lands on the band's centre: the
        // only place the far translation enters, and its rounding moves the
        // layer by no more than the transform itself can say.
        let (lqx, lqy) = scaledLocal(qx - tx, qy - ty)
        guard lqx.isFinite, lqy.isFinite else { return .empty }
        // The band's corners, relative to lq: small numbers, exact enough.
        var ux0 = Double.infinity, uy0 = Double.infinity, ux1 = -Double.infinity, uy1 = -Double.infinity
        for (x, y) in [(band.x0, band.y0), (band.x1, band.y0), (band.x0, band.y1), (band.x1, band.y1)] {
            let (u, v) = scaledLocal(x - qx, y - qy)
            ux0 = min(ux0, u); ux1 = max(ux1, u); uy0 = min(uy0, v); uy1 = max(uy1, v)
        }
        // The rect in the same coordinates (an edge past the largest double
        // is as good as infinitely far), cut to the band's preimage box.
        let x0 = max(rect.minX * s - lqx, ux0), x1 = min(rect.maxX * s - lqx, ux1)
        let y0 = max(rect.minY * s - lqy, uy0), y1 = min(rect.maxY * s - lqy, uy1)
        guard x1 > x0, y1 > y0 else { return .empty }
        // A layer so thin in one direction that the band's preimage is past
        // the largest double: left to the backends.
        guard (x1 - x0).isFinite, (y1 - y0).isFinite else { return .keep }
        var t = world
        t.divide(by: w)
        t.m11 = an; t.m12 = bn; t.m21 = cn; t.m22 = dn
        t.m13 /= s; t.m23 /= s
        t.m41 = qx; t.m42 = qy
        let z = t.m43 + lqx * t.m13 + lqy * t.m23
        t.m43 = z.isFinite ? z : 0
        return .cut(t, Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
    }
}
