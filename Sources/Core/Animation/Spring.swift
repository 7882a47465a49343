import Glibc

/// A damped harmonic oscillator carrying a value from 0 to 1 (S4.11):
/// m x'' + c x' + k (x - 1) = 0, x(0) = 0, x'(0) = initialVelocity (in
/// distances per second). Closed form in all three regimes.
public struct SpringParameters: Equatable, Sendable {
    public var mass = 1.0
    public var stiffness = 100.0
    public var damping = 10.0
    public var initialVelocity = 0.0

    public init() {}

    /// The fraction of the distance from which the motion is taken as at
    /// rest: 0.08%, where both of Core Animation's documented figures hold
    /// (CASpringAnimation.settlingDuration, mass 1, stiffness 100: damping 5
    /// "approximately 2.85 seconds", 2.865 here; damping 15 "just over 1
    /// second", 1.006). SwiftUI's epsilon for its own settlingDuration,
    /// 0.001, gave 2.78 s and 0.98 s: under one second for the second.
    public static let restFraction = 0.0008

    /// The solution u(t) = 1 - x(t) = e^(-a t) (...) in the form each regime needs.
    private enum Solution {
        case under(decay: Double, frequency: Double, a: Double, b: Double)
        case critical(decay: Double, a: Double, b: Double)
        case over(r1: Double, r2: Double, c1: Double, c2: Double)
    }

    private var solution: Solution {
        let w0 = (stiffness / mass).squareRoot()
        let zeta = damping / (2 * (stiffness * mass).squareRoot())
        let u0 = 1.0, du0 = -initialVelocity
        if abs(zeta - 1) < 1e-9 {
            return .critical(decay: w0, a: u0, b: du0 + w0 * u0)
        }
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            return .under(decay: zeta * w0, frequency: wd, a: u0, b: (du0 + zeta * w0 * u0) / wd)
        }
        // Without cancellation: zeta - root is 1 / (zeta + root), and a
        // large zeta's square overflows (damping 1e300 made r1 0, so the
        // spring never settled, or NaN).
        let root = zeta < 1e100 ? (zeta * zeta - 1).squareRoot() : zeta
        let r1 = -w0 / (zeta + root), r2 = -w0 * (zeta + root)
        // (du0 - r2 u0) / (r1 - r2), divided through by -r2: finite however large r2 is
        let c1 = (u0 - du0 / r2) / (1 - r1 / r2)
        return .over(r1: r1, r2: r2, c1: c1, c2: u0 - c1)
    }

    /// Whether the motion can be computed: the natural frequency
    /// sqrt(stiffness / mass) and the damping ratio are finite and the
    /// frequency not 0, and so is every coefficient of the solution (each
    /// parameter may be valid alone while mass 1e-300 and stiffness 1e300
    /// together overflow).
    public var isComputable: Bool {
        let w0 = (stiffness / mass).squareRoot()
        let zeta = damping / (2 * (stiffness * mass).squareRoot())
        guard w0.isFinite, w0 > 0, zeta.isFinite else { return false }
        switch solution {
        case let .under(decay, frequency, a, b):
            return decay.isFinite && frequency.isFinite && frequency > 0 && a.isFinite && b.isFinite
        case let .critical(decay, a, b):
            return decay.isFinite && a.isFinite && b.isFinite
        case let .over(r1, r2, c1, c2):
            return r1.isFinite && r1 < 0 && !r2.isNaN && c1.isFinite && c2.isFinite
        }
    }

    /// x(t): 0 at t = 0, settling at 1; overshoots when under-damped.
    public func fraction(at t: Double) -> Double {
        guard t > 0 else { return 0 }
        switch solution {
        case let .under(decay, frequency, a, b):
            return 1 - exp(-decay * t) * (a * cos(frequency * t) + b * sin(frequency * t))
        case let .critical(decay, a, b):
            return 1 - exp(-decay * t) * (a + b * t)
        case let .over(r1, r2, c1, c2):
            return 1 - (c1 * exp(r1 * t) + c2 * exp(r2 * t))
        }
    }

    /// The earliest time from which a bound on |1 - x(t)| (the envelope of
    /// the oscillation) stays within `restFraction`: after it the motion
    /// provably stays within that fraction of the distance.
    /// NaN when the motion cannot be computed (isComputable); infinite
    /// when undamped.
    public var settlingDuration: Double {
        guard isComputable else { return .nan }
        let eps = SpringParameters.restFraction
        switch solution {
        case let .under(decay, _, a, b):
            return max(0, log((a * a + b * b).squareRoot() / eps) / decay)
        case let .critical(decay, a, b):
            // e^(-w t)(|a| + |b| t) rises until t = 1/w - |a|/|b| at most, then falls.
            return SpringParameters.lastTimeAbove(eps) { t in exp(-decay * t) * (abs(a) + abs(b) * t) }
        case let .over(r1, r2, c1, c2):
            return SpringParameters.lastTimeAbove(eps) { t in abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t) }
        }
    }

    /// For a bound that starts above eps (it is at least 1 at t = 0), may
    /// rise, then falls for good: the set where it exceeds eps is [0, T).
    /// T by doubling (as far as doubles go: damping 1e300 barely moves the
    /// value, for some 1e301 s) then bisection to 1e-9 s, or to the
    /// doubles' own resolution that far out.
    private static func lastTimeAbove(_ eps: Double, _ bound: (Double) -> Double) -> Double {
        var hi = 1.0
        while bound(hi) > eps {
            guard hi < Double.greatestFiniteMagnitude / 2 else { return .infinity }
            hi *= 2
        }
        var lo = 0.0
        while hi - lo > max(1e-9, hi * 1e-15) {
            let mid = (lo + hi) / 2
            if bound(mid) > eps { lo = mid } else { hi = mid }
        }
        return hi
    }
}
