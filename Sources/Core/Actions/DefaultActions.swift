/// S3.1 step 4: the actions a program registers for a kind of layer and an
/// event, as a Core Animation subclass overrides `defaultActionForKey:`.
/// Searched after the style chain and before the built-in action; a null
/// action registered here turns the built-in animation off for the kind.
/// Guarded by the model lock, like every layer.
public enum DefaultActions {
    nonisolated(unsafe) private static var table: [LayerKind: [String: Action]] = [:]

    /// Whether anything is registered for the kind: the built-in fast path
    /// (Layer.runAction) is only taken when nothing is.
    static func isEmpty(for kind: LayerKind) -> Bool { table[kind]?.isEmpty ?? true }

    /// What is registered for the kind and event (the null action included).
    public static func action(for kind: LayerKind, event: String) -> Action? { table[kind]?[event] }

    /// Registers (or with nil removes) the default action. An animation
    /// action is kept as a copy: the registry is shared by every thread, so
    /// later changes to the program's animation must not reach it.
    public static func set(_ action: Action?, for kind: LayerKind, event: String) {
        guard let action else {
            table[kind]?[event] = nil
            return
        }
        if case .animation(let animation) = action.behaviour {
            table[kind, default: [:]][event] = Action(.animation(animation.copy()))
        } else {
            table[kind, default: [:]][event] = action
        }
    }
}
