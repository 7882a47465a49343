import CLayerKit
import LayerKitCore

// Timing functions (S4.7).

func timingFunction(_ handle: OpaquePointer?, _ argument: String) throws -> TimingFunction {
    try object(handle, argument, .timingFunction, as: TimingFunction.self)
}

@c @implementation public func lk_timing_function_named(_ name: lk_timing_name) -> OpaquePointer? {
    read(nil) {
        guard let n = TimingFunctionName(rawValue: Int32(bitPattern: name.rawValue)) else {
            throw LayerKitError(.invalidArgument, "name: \(name.rawValue) is not an lk_timing_name")
        }
        return borrowed(TimingFunction.named(n))
    }
}

@c @implementation public func lk_timing_function_create(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) -> OpaquePointer? {
    create {
        try TimingFunction.validate(c1x: c1x, c1y: c1y, c2x: c2x, c2y: c2y)
        return TimingFunction(c1x: c1x, c1y: c1y, c2x: c2x, c2y: c2y)
    }
}

@c @implementation public func lk_timing_function_evaluate(_ fn: OpaquePointer?, _ t: Double) -> Double {
    read(0) {
        let f = try timingFunction(fn, "fn")
        // (out of 0...1, infinities included, is clamped; NaN is no time)
        guard !t.isNaN else { throw LayerKitError(.invalidArgument, "t: nan is not a time (0...1)") }
        return f.evaluate(t)
    }
}

@c @implementation public func lk_timing_function_get_control_point(_ fn: OpaquePointer?, _ index: Int) -> lk_point {
    read(Point.zero.lk) {
        guard let p = try timingFunction(fn, "fn").controlPoint(at: index) else {
            throw LayerKitError(.invalidArgument, "index: \(UInt(bitPattern: index)) is not a control point index (0...3)")
        }
        return p.lk
    }
}
