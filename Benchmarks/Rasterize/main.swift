// Rasterization alone, against cairo drawing the same in the same run: what
// a shape layer's content costs when it changes (a 300x300 rounded rect with
// a Bezier wave, filled and stroked with width 3: goal within 1.5x of
// cairo), and a 1920x1080 three-stop gradient. LayerKit's figure includes
// what it adds around cairo: a fresh image per rasterization (the previous
// one may still be on screen), the path conversion and the placement.
// --smoke: a few iterations.
import CPangoCairo
import Glibc
import LayerKitCore

let smoke = CommandLine.arguments.contains("--smoke")
let iterations = smoke ? 3 : 300

func seconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

func measure(_ body: (Int) -> Void) -> Double {
    body(0)
    var best = Double.infinity
    for _ in 0..<3 {
        let start = seconds()
        for i in 0..<iterations { body(i) }
        best = min(best, (seconds() - start) / Double(iterations))
    }
    return best
}

func report(_ what: String, _ ours: Double, _ theirs: Double, goal: Double?) {
    func ms(_ s: Double) -> String {
        let v = (s * 1e5).rounded() / 100
        return String(v) + " ms"
    }
    var line = what + String(repeating: " ", count: max(1, 44 - what.count))
    line += "layerkit \(ms(ours))   cairo \(ms(theirs))   ratio \((ours / theirs * 100).rounded() / 100)"
    if let goal { line += "   [goal: <= \(goal)x]  \(ours / theirs <= goal ? "OK" : "OVER")" }
    print(line)
}

// The shape: a rounded rect whose top edge is a wave.
var wave = PathData()
wave.move(to: Point(x: 40, y: 20))
_ = wave.curve(control1: Point(x: 100, y: -10), control2: Point(x: 200, y: 50), to: Point(x: 260, y: 20))
wave.addArc(center: Point(x: 260, y: 40), radius: 20, start: -Double.pi / 2, end: 0, clockwise: true)
_ = wave.line(to: Point(x: 280, y: 260))
wave.addArc(center: Point(x: 260, y: 260), radius: 20, start: 0, end: Double.pi / 2, clockwise: true)
_ = wave.line(to: Point(x: 40, y: 280))
wave.addArc(center: Point(x: 40, y: 260), radius: 20, start: Double.pi / 2, end: Double.pi, clockwise: true)
_ = wave.line(to: Point(x: 20, y: 40))
wave.addArc(center: Point(x: 40, y: 40), radius: 20, start: Double.pi, end: 1.5 * Double.pi, clockwise: true)
wave.close()

var shape = ShapeState()
shape.path = Path(wave)
shape.fillColor = Color(r: 0.2, g: 0.6, b: 1, a: 1)
shape.strokeColor = Color(r: 1, g: 1, b: 1, a: 1)
shape.lineWidth = 3
let bounds = Rect(x: 0, y: 0, width: 300, height: 300)

let oursShape = measure { i in
    var s = shape
    s.fillColor = Color(r: 0.2, g: i & 1 == 0 ? 0.6 : 0.61, b: 1, a: 1)
    _ = ContentRasterizer.shape(s, bounds: bounds, scale: 1)
}

func cairoWave(_ cr: OpaquePointer) {
    cairo_move_to(cr, 40, 20)
    cairo_curve_to(cr, 100, -10, 200, 50, 260, 20)
    cairo_arc(cr, 260, 40, 20, -Double.pi / 2, 0)
    cairo_line_to(cr, 280, 260)
    cairo_arc(cr, 260, 260, 20, 0, Double.pi / 2)
    cairo_line_to(cr, 40, 280)
    cairo_arc(cr, 40, 260, 20, Double.pi / 2, Double.pi)
    cairo_line_to(cr, 20, 40)
    cairo_arc(cr, 40, 40, 20, Double.pi, 1.5 * Double.pi)
    cairo_close_path(cr)
}

let shapeSurface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 300, 300)
let theirsShape = measure { i in
    let cr = cairo_create(shapeSurface)!
    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
    cairo_paint(cr)
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
    cairoWave(cr)
    cairo_set_source_rgb(cr, 0.2, i & 1 == 0 ? 0.6 : 0.61, 1)
    cairo_fill_preserve(cr)
    cairo_set_line_width(cr, 3)
    cairo_set_source_rgb(cr, 1, 1, 1)
    cairo_stroke(cr)
    cairo_destroy(cr)
}
cairo_surface_destroy(shapeSurface)
report("shape 300x300 wave, fill + stroke 3", oursShape, theirsShape, goal: 1.5)

var gradient = GradientState()
gradient.colors = [Color(r: 1, g: 0, b: 0, a: 1), Color(r: 0, g: 1, b: 0, a: 1), Color(r: 0, g: 0, b: 1, a: 1)]
gradient.startPoint = Point(x: 0, y: 0)
gradient.endPoint = Point(x: 1, y: 1)
let full = Rect(x: 0, y: 0, width: 1920, height: 1080)
let oursGradient = measure { i in
    var g = gradient
    g.colors[1].g = i & 1 == 0 ? 1 : 0.99
    _ = ContentRasterizer.gradient(g, bounds: full, scale: 1)
}
let gradientSurface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1920, 1080)
let theirsGradient = measure { i in
    let cr = cairo_create(gradientSurface)!
    let pattern = cairo_pattern_create_linear(0, 0, 1920, 1080)!
    cairo_pattern_add_color_stop_rgb(pattern, 0, 1, 0, 0)
    cairo_pattern_add_color_stop_rgb(pattern, 0.5, 0, i & 1 == 0 ? 1 : 0.99, 0)
    cairo_pattern_add_color_stop_rgb(pattern, 1, 0, 0, 1)
    cairo_set_source(cr, pattern)
    cairo_paint(cr)
    cairo_pattern_destroy(pattern)
    cairo_destroy(cr)
}
cairo_surface_destroy(gradientSurface)
report("gradient 1920x1080, three stops", oursGradient, theirsGradient, goal: nil)
