/// CATextLayer's properties (S7.2). The default font is DejaVu Sans, which
/// a bare Debian has (fonts-dejavu-core); Core Animation's is Helvetica.
public struct TextState: KindState {
    public static var kind: LayerKind { .text }
    public var string: String? = nil
    /// A fontconfig family, optionally with a style ("DejaVu Sans Bold").
    public var font = TextState.defaultFont
    public var fontSize = 36.0
    public var foregroundColor: Color? = Color(r: 1, g: 1, b: 1, a: 1)
    public var alignmentMode = TextAlignment.natural
    public var wrapped = false
    public var truncationMode = TruncationMode.none
    public static let defaultFont = "DejaVu Sans"
    public init() {}
}

public enum TextAlignment: Int32, NamedValue, Sendable {
    case natural = 0, left, right, center, justified
    public var name: String { ["natural", "left", "right", "center", "justified"][Int(rawValue)] }
}

public enum TruncationMode: Int32, NamedValue, Sendable {
    case none = 0, start, middle, end
    public var name: String { ["none", "start", "middle", "end"][Int(rawValue)] }
}

extension LayerState {
    public var text: TextState {
        get { kindState(TextState.self) }
        set { setKindState(newValue) }
    }
}

/// The text layer's rows of the property table.
public enum TextProperties {
    private static func row<T>(_ key: String, _ keyPath: WritableKeyPath<TextState, T>, animatable: Bool,
                               check: ((T, LayerState) throws(LayerKitError) -> T)? = nil) -> Property<T> {
        let base: WritableKeyPath<LayerState, TextState> = \.text
        return Property(key, base.appending(path: keyPath), animatable: animatable, effect: .appearance,
                 kind: .text, check: check)
    }

    public static let string = row("string", \.string, animatable: false)
    public static let font = row("font", \.font, animatable: false) { name, _ throws(LayerKitError) in
        guard !name.isEmpty else { throw .invalid("font: the name is empty") }
        return name
    }
    public static let fontSize = row("fontSize", \.fontSize, animatable: true) { v, _ throws(LayerKitError) in
        try checkNonNegative("fontSize", v)
    }
    public static let foregroundColor = row("foregroundColor", \.foregroundColor, animatable: true) { c, _ throws(LayerKitError) in
        if let c { try checkUnitColor("foregroundColor", c) }
        return c
    }
    public static let alignmentMode = row("alignmentMode", \.alignmentMode, animatable: false)
    public static let wrapped = row("wrapped", \.wrapped, animatable: false)
    public static let truncationMode = row("truncationMode", \.truncationMode, animatable: false)

    static let all: [AnyProperty] = [
        string.erased, font.erased, fontSize.erased, foregroundColor.erased, alignmentMode.erased, wrapped.erased,
        truncationMode.erased,
    ]
    static let byKey: [String: AnyProperty] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
}
