//! The picture of a review: the most the team could still score over the turns, with the turns
//! that lost points marked, and below it, when the review has them, the chances to win of the
//! action taken and of the best one. Drawn as SVG with `plotters`.

use plotters::prelude::*;

use super::review::GameReview;
use super::AnalysisError;

const WIDTH: u32 = 900;
const SCORE_HEIGHT: u32 = 360;
const CHANCE_HEIGHT: u32 = 260;
const LOST: RGBColor = RGBColor(200, 30, 30);
const TAKEN: RGBColor = RGBColor(30, 90, 200);
const BEST: RGBColor = RGBColor(40, 150, 60);

/// The review as an SVG document.
pub fn review_svg(review: &GameReview) -> Result<String, AnalysisError> {
    let mut svg = String::new();
    draw(review, &mut svg).map_err(|e| AnalysisError::Internal(format!("drawing: {e}")))?;
    Ok(svg)
}

fn draw(review: &GameReview, svg: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let has_chances = review.turns.iter().any(|t| t.chance.is_some());
    let height = SCORE_HEIGHT + if has_chances { CHANCE_HEIGHT } else { 0 };
    let root = SVGBackend::with_string(svg, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let (top, bottom) = root.split_vertically(SCORE_HEIGHT);
    // The value before each turn, then after the last one: points at turns 1..=n+1.
    let last_turn = review.turns.last().map_or(1, |t| t.turn + 1);
    let mut before: Vec<(usize, u8, u8)> = review
        .turns
        .iter()
        .map(|t| (t.turn, t.max_before, t.max_before_upper))
        .collect();
    if let Some(t) = review.turns.last() {
        before.push((t.turn + 1, t.max_after, t.max_after_upper));
    }
    let perfect = u32::from(review.perfect_score);
    let mut chart = ChartBuilder::on(&top)
        .caption(
            format!("{}: the most still reachable", review.variant),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(40)
        .build_cartesian_2d(1usize..last_turn.max(2), 0u32..perfect + 1)?;
    chart
        .configure_mesh()
        .x_desc("turn")
        .y_desc("score")
        .draw()?;
    chart
        .draw_series(LineSeries::new(
            before.iter().map(|&(t, max, _)| (t, u32::from(max))),
            BLACK.stroke_width(2),
        ))?
        .label("with every card known")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK.stroke_width(2)));
    if before.iter().any(|&(_, max, upper)| max != upper) {
        chart
            .draw_series(LineSeries::new(
                before.iter().map(|&(t, _, upper)| (t, u32::from(upper))),
                BLACK.mix(0.4),
            ))?
            .label("upper bound (a limit stopped the search)")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK.mix(0.4)));
    }
    chart
        .draw_series(
            review
                .turns
                .iter()
                .filter(|t| t.lost_points())
                .map(|t| Circle::new((t.turn, u32::from(t.max_before)), 5, LOST.filled())),
        )?
        .label("an action that lost points")
        .legend(|(x, y)| Circle::new((x + 10, y), 5, LOST.filled()));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    if has_chances {
        draw_chances(review, &bottom, last_turn)?;
    }
    root.present()?;
    Ok(())
}

/// The chance to win of the action taken and of the best one, in percent, over the turns.
fn draw_chances(
    review: &GameReview,
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    last_turn: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut chart = ChartBuilder::on(area)
        .caption(
            "chance to win with the draw pile hidden (exact where marked, else sampled)",
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(40)
        .build_cartesian_2d(1usize..last_turn.max(2), 0f64..100f64)?;
    // Whole percents, so that the labels leave room for the axis name.
    chart
        .configure_mesh()
        .x_desc("turn")
        .y_desc("%")
        .y_label_formatter(&|v| format!("{v:.0}"))
        .draw()?;
    let points = |best: bool| -> Vec<(usize, f64)> {
        review
            .turns
            .iter()
            .filter_map(|t| {
                t.chance.as_ref().map(|c| {
                    let chance = if best { &c.best } else { &c.taken };
                    (t.turn, 100.0 * chance.win)
                })
            })
            .collect()
    };
    chart
        .draw_series(LineSeries::new(points(true), BEST.stroke_width(2)))?
        .label("best action")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BEST.stroke_width(2)));
    chart
        .draw_series(LineSeries::new(points(false), TAKEN.stroke_width(2)))?
        .label("action taken")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], TAKEN.stroke_width(2)));
    chart
        .draw_series(review.turns.iter().filter_map(|t| {
            let c = t.chance.as_ref()?;
            (c.mode == super::win_chance::ChanceMode::Exact)
                .then(|| Circle::new((t.turn, 100.0 * c.taken.win), 3, TAKEN.filled()))
        }))?
        .label("exact")
        .legend(|(x, y)| Circle::new((x + 10, y), 3, TAKEN.filled()));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}
