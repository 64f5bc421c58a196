//! The plots of a study report: SVG drawn with `plotters`, and PNG
//! rendered from that SVG with `resvg` (system fonts through `fontdb`, so
//! text needs a font such as Debian's `fonts-dejavu-core`).

use std::path::Path;
use std::sync::{Arc, OnceLock};

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

const WIDTH: u32 = 900;
const HEIGHT: u32 = 500;
const FONT: &str = "sans-serif";
/// Room at the right for a legend.
const LEGEND_WIDTH: u32 = 170;

/// Tableau's ten colours: distinct, and readable on white.
const PALETTE: [RGBColor; 10] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(225, 87, 89),
    RGBColor(118, 183, 178),
    RGBColor(89, 161, 79),
    RGBColor(237, 201, 72),
    RGBColor(176, 122, 161),
    RGBColor(255, 157, 167),
    RGBColor(156, 117, 95),
    RGBColor(186, 176, 172),
];

/// The colour of series `i`.
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

fn err(e: impl std::fmt::Display) -> String {
    format!("plotting: {e}")
}

/// A value with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// A y range around the intervals (and `reference`), within [0, 1].
fn y_range(intervals: impl Iterator<Item = Interval>, reference: Option<f64>) -> (f64, f64) {
    let (mut lo, mut hi) = reference.map_or((1.0f64, 0.0f64), |r| (r, r));
    for i in intervals {
        lo = lo.min(i.low);
        hi = hi.max(i.high);
    }
    if lo > hi {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.15).max(0.02);
    ((lo - pad).max(0.0), (hi + pad).min(1.0))
}

/// Segments 0..n on the x axis, one per category.
fn segments(
    n: usize,
) -> plotters::coord::ranged1d::SegmentedCoord<plotters::coord::types::RangedCoordi32> {
    (0..(n.max(1) as i32 - 1)).into_segmented()
}

fn label_of(labels: &[String], x: &SegmentValue<i32>) -> String {
    match x {
        SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
            labels.get(*i as usize).cloned().unwrap_or_default()
        }
        SegmentValue::Last => String::new(),
    }
}

/// A thin grey line across the plot at `y`.
fn reference_line(y: f64) -> std::iter::Once<PathElement<(SegmentValue<i32>, f64)>> {
    std::iter::once(PathElement::new(
        vec![(SegmentValue::Exact(0), y), (SegmentValue::Last, y)],
        ShapeStyle::from(&BLACK.mix(0.5)).stroke_width(1),
    ))
}

/// One value per category with its interval, as points with error bars;
/// `bars` draws a bar from 0 to each value as well.
pub fn intervals(
    title: &str,
    y_desc: &str,
    labels: &[String],
    values: &[Option<Interval>],
    reference: Option<f64>,
    bars: bool,
) -> Result<String, String> {
    let n = labels.len();
    let (lo, hi) = if bars {
        (0.0, y_range(values.iter().flatten().copied(), reference).1)
    } else {
        y_range(values.iter().flatten().copied(), reference)
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 22))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(segments(n), lo..hi)
            .map_err(err)?;
        let format = |x: &SegmentValue<i32>| label_of(labels, x);
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n.max(1))
            .x_label_formatter(&format)
            .y_desc(y_desc)
            .y_label_formatter(&|y| format!("{y:.2}"))
            .label_style((FONT, 14))
            .draw()
            .map_err(err)?;
        if bars {
            chart
                .draw_series(values.iter().enumerate().filter_map(|(i, v)| {
                    let v = (*v)?;
                    let mut r = Rectangle::new(
                        [
                            (SegmentValue::Exact(i as i32), 0.0),
                            (SegmentValue::Exact(i as i32 + 1), v.value),
                        ],
                        colour(i).mix(0.6).filled(),
                    );
                    r.set_margin(0, 0, 20, 20);
                    Some(r)
                }))
                .map_err(err)?;
        }
        if let Some(r) = reference {
            chart.draw_series(reference_line(r)).map_err(err)?;
        }
        chart
            .draw_series(values.iter().enumerate().filter_map(|(i, v)| {
                let v = (*v)?;
                Some(ErrorBar::new_vertical(
                    SegmentValue::CenterOf(i as i32),
                    v.low,
                    v.value,
                    v.high,
                    BLACK.stroke_width(2),
                    16,
                ))
            }))
            .map_err(err)?;
        if !bars {
            chart
                .draw_series(values.iter().enumerate().filter_map(|(i, v)| {
                    let v = (*v)?;
                    Some(Circle::new(
                        (SegmentValue::CenterOf(i as i32), v.value),
                        6,
                        colour(i).filled(),
                    ))
                }))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// A legend of coloured boxes, top to bottom, in `area`.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    entries: &[(String, RGBColor)],
) -> Result<(), String> {
    for (k, (name, c)) in entries.iter().enumerate() {
        let y = 50 + 24 * k as i32;
        area.draw(&Rectangle::new([(5, y), (19, y + 14)], c.filled()))
            .map_err(err)?;
        area.draw(&Text::new(name.clone(), (26, y), (FONT, 14)))
            .map_err(err)?;
    }
    Ok(())
}

/// Stacked bars, one per category: `series[k].1[i]` is the share of
/// part k in category i (each category's shares add up to 1).
pub fn stacked(
    title: &str,
    y_desc: &str,
    labels: &[String],
    series: &[(String, Vec<f64>)],
) -> Result<String, String> {
    let n = labels.len();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, side) = root.split_horizontally(WIDTH - LEGEND_WIDTH);
        let mut chart = ChartBuilder::on(&plot)
            .caption(title, (FONT, 22))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(segments(n), 0.0..1.0)
            .map_err(err)?;
        let format = |x: &SegmentValue<i32>| label_of(labels, x);
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n.max(1))
            .x_label_formatter(&format)
            .y_desc(y_desc)
            .y_label_formatter(&|y| format!("{:.0} %", 100.0 * y))
            .label_style((FONT, 14))
            .draw()
            .map_err(err)?;
        let mut base = vec![0.0; n];
        for (k, (_, shares)) in series.iter().enumerate() {
            let mut rects = Vec::new();
            for (i, &s) in shares.iter().enumerate().take(n) {
                if s > 0.0 {
                    let mut r = Rectangle::new(
                        [
                            (SegmentValue::Exact(i as i32), base[i]),
                            (SegmentValue::Exact(i as i32 + 1), base[i] + s),
                        ],
                        colour(k).filled(),
                    );
                    r.set_margin(0, 0, 15, 15);
                    rects.push(r);
                    base[i] += s;
                }
            }
            chart.draw_series(rects).map_err(err)?;
        }
        let entries: Vec<(String, RGBColor)> = series
            .iter()
            .enumerate()
            .filter(|(_, (_, s))| s.iter().any(|&x| x > 0.0))
            .map(|(k, (name, _))| (name.clone(), colour(k)))
            .collect();
        legend(&side, &entries)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// One histogram per panel: (title, x axis words, values), in a grid.
pub fn histograms(title: &str, panels: &[(String, String, Vec<u32>)]) -> Result<String, String> {
    let cols = panels.len().clamp(1, 3);
    let rows = panels.len().div_ceil(cols).max(1);
    let height = 60 + 280 * rows as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root.titled(title, (FONT, 22)).map_err(err)?;
        for (k, (area, (name, unit, values))) in root
            .split_evenly((rows, cols))
            .iter()
            .zip(panels)
            .enumerate()
        {
            let max = values.iter().copied().max().unwrap_or(0).max(1);
            // About 20 bins of a round width.
            let width = [1u32, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000]
                .into_iter()
                .find(|w| max / w <= 20)
                .unwrap_or(max.div_ceil(20).max(1));
            let bins = (max / width + 1) as usize;
            let mut counts = vec![0u32; bins];
            for &v in values {
                counts[(v / width) as usize] += 1;
            }
            let top = counts.iter().copied().max().unwrap_or(0).max(1);
            let right = (bins as u32 * width) as f64;
            let mut chart = ChartBuilder::on(area)
                .caption(name, (FONT, 16))
                .margin(10)
                .x_label_area_size(35)
                .y_label_area_size(45)
                .build_cartesian_2d(0.0..right, 0u32..top + top / 10 + 1)
                .map_err(err)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_desc(unit.as_str())
                .y_desc("games")
                .x_labels(6)
                .y_labels(6)
                .x_label_formatter(&|x| format!("{x:.0}"))
                .label_style((FONT, 12))
                .draw()
                .map_err(err)?;
            chart
                .draw_series(
                    counts
                        .iter()
                        .enumerate()
                        .filter(|(_, &c)| c > 0)
                        .map(|(b, &c)| {
                            let x0 = (b as u32 * width) as f64;
                            let mut r = Rectangle::new(
                                [(x0, 0), (x0 + width as f64, c)],
                                colour(k).filled(),
                            );
                            r.set_margin(0, 0, 1, 1);
                            r
                        }),
                )
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Lines over categories (budget levels), one per series, with error
/// bars; the series are set a little apart so their bars do not hide
/// each other.
pub fn lines(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    labels: &[String],
    series: &[(String, Vec<Option<Interval>>)],
    reference: Option<f64>,
) -> Result<String, String> {
    let n = labels.len().max(1);
    let all = series.iter().flat_map(|(_, v)| v.iter().flatten().copied());
    let (lo, hi) = y_range(all, reference);
    let (left, right) = (-0.5, n as f64 - 0.5);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, side) = root.split_horizontally(WIDTH - LEGEND_WIDTH);
        let mut chart = ChartBuilder::on(&plot)
            .caption(title, (FONT, 22))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(left..right, lo..hi)
            .map_err(err)?;
        // Labels at whole numbers only (the levels).
        let format = |x: &f64| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n)
            .x_label_formatter(&format)
            .x_desc(x_desc)
            .y_desc(y_desc)
            .y_label_formatter(&|y| format!("{y:.2}"))
            .label_style((FONT, 14))
            .draw()
            .map_err(err)?;
        if let Some(r) = reference {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(left, r), (right, r)],
                    ShapeStyle::from(&BLACK.mix(0.5)).stroke_width(1),
                )))
                .map_err(err)?;
        }
        let spread = 0.3_f64.min(0.06 * series.len() as f64);
        for (k, (_, values)) in series.iter().enumerate() {
            let c = colour(k);
            let offset = if series.len() > 1 {
                spread * (k as f64 / (series.len() - 1) as f64 - 0.5)
            } else {
                0.0
            };
            let points: Vec<(f64, Interval)> = values
                .iter()
                .enumerate()
                .filter_map(|(i, v)| v.map(|v| (i as f64 + offset, v)))
                .collect();
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|(x, v)| (*x, v.value)),
                    c.stroke_width(2),
                ))
                .map_err(err)?;
            chart
                .draw_series(points.iter().map(|(x, v)| {
                    ErrorBar::new_vertical(*x, v.low, v.value, v.high, c.stroke_width(1), 10)
                }))
                .map_err(err)?;
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|(x, v)| Circle::new((*x, v.value), 5, c.filled())),
                )
                .map_err(err)?;
        }
        let entries: Vec<(String, RGBColor)> = series
            .iter()
            .enumerate()
            .map(|(k, (name, _))| (name.clone(), colour(k)))
            .collect();
        legend(&side, &entries)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The system's fonts, loaded once, with a sans-serif family that exists.
fn fonts() -> Arc<resvg::usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = resvg::usvg::fontdb::Database::new();
            db.load_system_fonts();
            let families: Vec<String> = db
                .faces()
                .flat_map(|f| f.families.iter().map(|(name, _)| name.clone()))
                .collect();
            let sans = ["DejaVu Sans", "Liberation Sans", "Arial", "Helvetica"]
                .into_iter()
                .map(String::from)
                .find(|f| families.contains(f))
                .or_else(|| families.first().cloned());
            if let Some(sans) = sans {
                db.set_sans_serif_family(sans);
            }
            Arc::new(db)
        })
        .clone()
}

/// Renders an SVG to a PNG file of the same size.
pub fn write_png(svg: &str, path: &Path) -> Result<(), String> {
    let options = resvg::usvg::Options {
        fontdb: fonts(),
        ..resvg::usvg::Options::default()
    };
    let tree = resvg::usvg::Tree::from_str(svg, &options).map_err(|e| format!("SVG: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| "an empty image".to_string())?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let png = pixmap
        .encode_png()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(path, png).map_err(|e| format!("{}: {e}", path.display()))
}
