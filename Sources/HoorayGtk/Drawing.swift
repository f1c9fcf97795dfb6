import CGtk

/// A colour, red, green, blue and opacity from 0 to 1, as GTK's `GdkRGBA` holds it.
public struct Color: Sendable, Equatable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// The same colour, with this opacity.
    public func withAlpha(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }
}

/// A picture the app draws itself with cairo (`GtkDrawingArea`): a chart, a calendar. Screen readers
/// know it as an image, named by ``Widget/setAccessibleLabel(_:)`` and described, day by day or
/// point by point, by ``setAccessibleDescription(_:)``: its text alternative.
public final class DrawingArea: Widget {
    public init() {
        super.init(constructed: hooray_gtk_drawing_area_new_image())
    }

    private var area: UnsafeMutablePointer<GtkDrawingArea> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkDrawingArea.self)
    }

    /// The size it asks for, in pixels; it may be given more.
    public func setContentSize(width: Int, height: Int) {
        gtk_drawing_area_set_content_width(area, Int32(width))
        gtk_drawing_area_set_content_height(area, Int32(height))
    }

    /// The longer text a screen reader reads after its name: what the picture shows, in words.
    public func setAccessibleDescription(_ description: String) {
        hooray_gtk_set_accessible_description(widget, description)
    }

    /// What draws it, each time GTK asks: on first showing, after ``redraw()``, at a new size and at a
    /// change of style (light or dark). The closure is kept by the area and let go of with it.
    public func onDraw(_ draw: @escaping @MainActor (Canvas) -> Void) {
        let box = Unmanaged.passRetained(HandlerBox(draw)).toOpaque()
        let trampoline: GtkDrawingAreaDrawFunc = { area, cairo, width, height, data in
            let box = Unmanaged<HandlerBox<@MainActor (Canvas) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            guard let area, let cairo else { return }
            let widget = UnsafeMutableRawPointer(area).assumingMemoryBound(to: GtkWidget.self)
            MainActor.assumeIsolated {
                box.handler(Canvas(cairo: cairo, widget: widget, width: Double(width), height: Double(height)))
            }
        }
        let release: GDestroyNotify = { data in Unmanaged<AnyObject>.fromOpaque(data!).release() }
        gtk_drawing_area_set_draw_func(area, trampoline, box, release)
    }

    /// Asks GTK to draw it again, with what the draw closure reads now.
    public func redraw() {
        gtk_widget_queue_draw(widget)
    }
}

/// What a ``DrawingArea`` is drawn on: a cairo context the size of the area, and the area's style
/// for its colours and its font. Valid only inside the draw closure.
@MainActor
public struct Canvas {
    fileprivate let cairo: OpaquePointer
    fileprivate let widget: UnsafeMutablePointer<GtkWidget>
    /// The room to draw in, in pixels.
    public let width: Double
    public let height: Double

    /// The text colour of the area's style: dark on light, light on dark.
    public var foreground: Color {
        var rgba = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(widget), &rgba)
        return Color(
            red: Double(rgba.red), green: Double(rgba.green), blue: Double(rgba.blue), alpha: Double(rgba.alpha))
    }

    /// A colour the style sheet names, such as libadwaita's `"success_color"`, `"error_color"`,
    /// `"warning_color"` or `"accent_color"`, which follow the light or dark style; `fallback` when
    /// the style has no such colour.
    public func color(named name: String, fallback: Color) -> Color {
        var rgba = GdkRGBA()
        guard gtk_style_context_lookup_color(gtk_widget_get_style_context(widget), name, &rgba) != 0 else {
            return fallback
        }
        return Color(
            red: Double(rgba.red), green: Double(rgba.green), blue: Double(rgba.blue), alpha: Double(rgba.alpha))
    }

    /// Paints and strokes in this colour from now on.
    public func setColor(_ color: Color) {
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
    }

    /// Fills a circle.
    public func fillCircle(x: Double, y: Double, radius: Double) {
        cairo_new_path(cairo)
        cairo_arc(cairo, x, y, radius, 0, 2 * Double.pi)
        cairo_fill(cairo)
    }

    /// Draws an arc's line, angles in radians from three o'clock, clockwise; `dashes` (lengths of
    /// line and gap, in pixels) draws it dashed.
    public func strokeArc(
        x: Double, y: Double, radius: Double, from start: Double = 0, to end: Double = 2 * Double.pi,
        lineWidth: Double, dashes: [Double] = [], roundCaps: Bool = false
    ) {
        cairo_new_path(cairo)
        cairo_arc(cairo, x, y, radius, start, end)
        stroke(lineWidth: lineWidth, dashes: dashes, roundCaps: roundCaps)
    }

    /// Draws a line through the points.
    public func strokeLine(_ points: [(x: Double, y: Double)], lineWidth: Double, roundCaps: Bool = true) {
        guard let first = points.first else { return }
        cairo_new_path(cairo)
        cairo_move_to(cairo, first.x, first.y)
        for point in points.dropFirst() { cairo_line_to(cairo, point.x, point.y) }
        stroke(lineWidth: lineWidth, dashes: [], roundCaps: roundCaps)
    }

    /// Fills an ellipse centred on a point, its first radius turned by `angle` (radians, clockwise
    /// from three o'clock), such as a leaf.
    public func fillEllipse(x: Double, y: Double, radiusX: Double, radiusY: Double, angle: Double = 0) {
        guard radiusX > 0, radiusY > 0 else { return }
        cairo_save(cairo)
        cairo_new_path(cairo)
        cairo_translate(cairo, x, y)
        cairo_rotate(cairo, angle)
        cairo_scale(cairo, radiusX, radiusY)
        cairo_arc(cairo, 0, 0, 1, 0, 2 * Double.pi)
        cairo_restore(cairo)
        cairo_fill(cairo)
    }

    /// Fills a shape through the points, closed back to the first.
    public func fillPolygon(_ points: [(x: Double, y: Double)]) {
        guard let first = points.first else { return }
        cairo_new_path(cairo)
        cairo_move_to(cairo, first.x, first.y)
        for point in points.dropFirst() { cairo_line_to(cairo, point.x, point.y) }
        cairo_close_path(cairo)
        cairo_fill(cairo)
    }

    /// Fills a rectangle with rounded corners.
    public func fillRoundedRectangle(x: Double, y: Double, width: Double, height: Double, radius: Double) {
        roundedRectangle(x: x, y: y, width: width, height: height, radius: radius)
        cairo_fill(cairo)
    }

    /// Draws the outline of a rectangle with rounded corners.
    public func strokeRoundedRectangle(
        x: Double, y: Double, width: Double, height: Double, radius: Double, lineWidth: Double
    ) {
        roundedRectangle(x: x, y: y, width: width, height: height, radius: radius)
        stroke(lineWidth: lineWidth, dashes: [], roundCaps: false)
    }

    /// The size a text takes in the area's font, in pixels.
    public func measure(_ text: String, bold: Bool = false, scale: Double = 1) -> (width: Double, height: Double) {
        let layout = self.layout(text, bold: bold, scale: scale)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return (Double(width), Double(height))
    }

    /// Writes a text in the area's font, centred on a point, in the colour set last.
    public func drawText(_ text: String, centeredAt x: Double, _ y: Double, bold: Bool = false, scale: Double = 1) {
        let layout = self.layout(text, bold: bold, scale: scale)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        cairo_move_to(cairo, x - Double(width) / 2, y - Double(height) / 2)
        pango_cairo_show_layout(cairo, layout)
    }

    private func layout(_ text: String, bold: Bool, scale: Double) -> OpaquePointer {
        let layout = gtk_widget_create_pango_layout(widget, text)!
        if bold || scale != 1 {
            let base = pango_context_get_font_description(gtk_widget_get_pango_context(widget))
            let font = pango_font_description_copy(base)!
            defer { pango_font_description_free(font) }
            if bold { pango_font_description_set_weight(font, PANGO_WEIGHT_BOLD) }
            if scale != 1 {
                let size = pango_font_description_get_size(font)
                pango_font_description_set_size(font, Int32(Double(size) * scale))
            }
            pango_layout_set_font_description(layout, font)
        }
        return layout
    }

    private func roundedRectangle(x: Double, y: Double, width: Double, height: Double, radius: Double) {
        let r = min(radius, width / 2, height / 2)
        cairo_new_path(cairo)
        cairo_arc(cairo, x + width - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(cairo, x + width - r, y + height - r, r, 0, Double.pi / 2)
        cairo_arc(cairo, x + r, y + height - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cairo, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cairo)
    }

    private func stroke(lineWidth: Double, dashes: [Double], roundCaps: Bool) {
        cairo_set_line_width(cairo, lineWidth)
        cairo_set_line_cap(cairo, roundCaps ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
        cairo_set_dash(cairo, dashes, Int32(dashes.count), 0)
        cairo_stroke(cairo)
        cairo_set_dash(cairo, nil, 0, 0)
    }
}
