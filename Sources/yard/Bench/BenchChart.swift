import Foundation

/// An SVG chart of bench results: throughput by concurrency per series (transport · chain · payload),
/// and p50 (solid) and p99 (dashed) latency by concurrency, viewable in any browser.
enum BenchChart {
    private static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
    private static let panel = (width: 460.0, height: 300.0, left: 70.0, top: 50.0)

    static func svg(_ results: [BenchResult], title: String) -> String {
        let levels = Array(Set(results.map(\.concurrency))).sorted()
        var series: [String: [BenchResult]] = [:]
        var order: [String] = []
        for result in results {
            let name = "\(result.transport) · \(result.chain) · \(result.payload)"
            if series[name] == nil { order.append(name) }
            series[name, default: []].append(result)
        }
        let width = panel.left * 2 + panel.width * 2 + 80
        let height = panel.top + panel.height + 70 + Double(order.count) * 18
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(panel.left)" y="22" font-size="15" font-weight="bold">\(escape(title))</text>

            """
        let throughput = Self.roundScale(results.map(\.run.requestsPerSecond).max() ?? 1)
        let latency = Self.roundScale(results.map { Double($0.run.microseconds(at: 99)) / 1_000 }.max() ?? 1)
        svg += axes(x: panel.left, label: "requests/s", scale: throughput, levels: levels)
        svg += axes(
            x: panel.left * 2 + panel.width + 40, label: "latency ms (p50 solid, p99 dashed)", scale: latency,
            levels: levels)
        for (index, name) in order.enumerated() {
            let color = palette[index % palette.count]
            let points = (series[name] ?? []).sorted { $0.concurrency < $1.concurrency }
            svg += line(
                points.map { ($0.concurrency, $0.run.requestsPerSecond) }, x: panel.left, maximum: throughput.top,
                levels: levels, color: color, dashed: false)
            let right = panel.left * 2 + panel.width + 40
            svg += line(
                points.map { ($0.concurrency, Double($0.run.microseconds(at: 50)) / 1_000) }, x: right,
                maximum: latency.top, levels: levels, color: color, dashed: false)
            svg += line(
                points.map { ($0.concurrency, Double($0.run.microseconds(at: 99)) / 1_000) }, x: right,
                maximum: latency.top, levels: levels, color: color, dashed: true)
            let legendY = panel.top + panel.height + 50 + Double(index) * 18
            svg += "<rect x=\"\(panel.left)\" y=\"\(legendY - 10)\" width=\"14\" height=\"10\" fill=\"\(color)\"/>"
            svg += "<text x=\"\(panel.left + 20)\" y=\"\(legendY)\">\(escape(name))</text>\n"
        }
        return svg + "</svg>\n"
    }

    private static func xPosition(_ concurrency: Int, levels: [Int], left: Double) -> Double {
        let index = Double(levels.firstIndex(of: concurrency) ?? 0)
        return left + (levels.count == 1 ? panel.width / 2 : index / Double(levels.count - 1) * panel.width)
    }

    private static func yPosition(_ value: Double, maximum: Double) -> Double {
        panel.top + panel.height - value / max(maximum, 1e-9) * panel.height
    }

    /// A scale whose top is a whole number of round steps (1, 2, 2.5 or 5 × 10ⁿ) above `maximum`,
    /// with at most five steps, so the grid lines fall on values a reader can take in at a glance.
    static func roundScale(_ maximum: Double) -> (top: Double, steps: Int) {
        let value = maximum.isFinite && maximum > 0 ? maximum : 1
        var magnitude = pow(10, (value / 5).log10Floor)
        while true {
            for multiple in [1, 2, 2.5, 5] {
                let step = multiple * magnitude
                let steps = Int((value / step).rounded(.up))
                if steps <= 5 { return (Double(max(steps, 1)) * step, max(steps, 1)) }
            }
            magnitude *= 10
        }
    }

    private static func axes(x left: Double, label: String, scale: (top: Double, steps: Int), levels: [Int]) -> String {
        let maximum = scale.top
        var text =
            "<rect x=\"\(left)\" y=\"\(panel.top)\" width=\"\(panel.width)\" height=\"\(panel.height)\" fill=\"none\" stroke=\"#999\"/>\n"
        text += "<text x=\"\(left)\" y=\"\(panel.top - 8)\" font-weight=\"bold\">\(escape(label))</text>\n"
        for step in 0...scale.steps {
            let value = maximum * Double(step) / Double(scale.steps)
            let y = yPosition(value, maximum: maximum)
            text += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(left + panel.width)\" y2=\"\(y)\" stroke=\"#eee\"/>"
            text += "<text x=\"\(left - 6)\" y=\"\(y + 4)\" text-anchor=\"end\">\(format(value))</text>\n"
        }
        for level in levels {
            let x = xPosition(level, levels: levels, left: left)
            text += "<text x=\"\(x)\" y=\"\(panel.top + panel.height + 16)\" text-anchor=\"middle\">c=\(level)</text>\n"
        }
        return text
    }

    private static func line(
        _ points: [(Int, Double)], x left: Double, maximum: Double, levels: [Int], color: String,
        dashed: Bool
    ) -> String {
        let coordinates = points.map { "\(xPosition($0.0, levels: levels, left: left)),\(yPosition($0.1, maximum: maximum))" }
        let dash = dashed ? " stroke-dasharray=\"6 4\"" : ""
        var text =
            "<polyline points=\"\(coordinates.joined(separator: " "))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dash)/>\n"
        for coordinate in coordinates {
            let parts = coordinate.split(separator: ",")
            text += "<circle cx=\"\(parts[0])\" cy=\"\(parts[1])\" r=\"3\" fill=\"\(color)\"/>"
        }
        return text + "\n"
    }

    private static func format(_ value: Double) -> String {
        if value >= 1_000 { return "\(trimmed(value / 1_000))k" }
        return trimmed(value)
    }

    /// At most two decimals, without trailing zeros: 2.5, 0.25, 40.
    private static func trimmed(_ value: Double) -> String {
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}

extension Double {
    /// ⌊log₁₀(self)⌋ for a positive value.
    fileprivate var log10Floor: Double { Foundation.log10(self).rounded(.down) }
}
