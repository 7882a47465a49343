import CLayerKit

/// What happened to a display's output, as the backend reports it
/// (lk_backend_host.output_changed) and the program hears it
/// (lk_display_event): the values are the same in both.
public enum DisplayEvent: UInt32, Sendable {
    /// Nothing can be shown (DRM master lost, connector unplugged): no
    /// frames are drawn until `resumed`.
    case paused = 1
    /// Showing again: the next frame is drawn whole.
    case resumed = 2
    /// The output has another size or refresh rate now.
    case resized = 3
}

/// The program's display event callback, run on the run loop of the thread
/// that set it. Dropping the last reference calls `destroy` (the C API's
/// destroy(user_data)).
public final class DisplayEventHandler: @unchecked Sendable {
    let runLoop: RunLoop
    let callback: (Display, DisplayEvent, String?) -> Void
    private let destroy: (() -> Void)?

    public init(callback: @escaping (Display, DisplayEvent, String?) -> Void, destroy: (() -> Void)?) {
        runLoop = RunLoop.current
        self.callback = callback
        self.destroy = destroy
    }

    deinit { destroy?() }
}
