import Glibc

/// Seconds on the monotonic clock (CACurrentMediaTime).
public func mediaTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
