//! Match statistics: score, Elo difference with a 95% interval, likelihood
//! of superiority, and the sequential probability ratio test.
//!
//! Elo is the logistic model: a score `s` (0..1) is a difference of
//! `-400 log10(1/s - 1)`. The interval is the normal approximation of the
//! mean score, `s ± 1.96 σ/√n`, each end mapped to Elo, where σ² is the
//! variance of one unit's score: a game (trinomial: 1, ½, 0) or, since every
//! opening is played twice with colours swapped, a game pair (pentanomial:
//! pair score 0, ¼, ½, ¾, 1 per game), which removes the opening's bias
//! from the error.
//!
//! The SPRT is the generalised SPRT of fishtest: for the hypotheses
//! `elo0` and `elo1` (logistic Elo, expected scores `s0` and `s1`) it takes
//! the maximum-likelihood distribution of the outcome frequencies whose mean
//! is `s0` (resp. `s1`) and sums the log of their ratio over the observed
//! units. Counts of zero are replaced by 0.001 (as fishtest does) so that a
//! few games give a finite value. Bounds are Wald's: `ln(β/(1-α))` and
//! `ln((1-β)/α)`.

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Game results from the first engine's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Trinomial {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    /// Points of the first engine.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }
    fn pdf(&self) -> Vec<(f64, f64)> {
        vec![
            (0.0, self.losses as f64),
            (0.5, self.draws as f64),
            (1.0, self.wins as f64),
        ]
    }
}

/// Pair results from the first engine's view: `counts[i]` pairs in which
/// it scored `i / 2` points of 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u32; 5],
}

impl Pentanomial {
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }
    /// Adds a pair given its points in half-points (0..=4).
    pub fn add(&mut self, half_points: u32) {
        self.counts[half_points.min(4) as usize] += 1;
    }
    fn pdf(&self) -> Vec<(f64, f64)> {
        self.counts
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as f64 / 4.0, c as f64))
            .collect()
    }
}

/// Logistic Elo difference of a score in 0..1 (±infinity at the ends).
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns the -0.0 of an even score into 0.0.
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// Expected score of a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A score and its Elo with a 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub score: f64,
    pub score_low: f64,
    pub score_high: f64,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
}

impl Estimate {
    /// Half the width of the Elo interval (the usual "± x").
    pub fn elo_error(&self) -> f64 {
        (self.elo_high - self.elo_low) / 2.0
    }
}

/// Mean and variance of a frequency table of (value, count); `None` when empty.
fn mean_var(pdf: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = pdf.iter().map(|p| p.1).sum();
    if n <= 0.0 {
        return None;
    }
    let mean = pdf.iter().map(|(x, c)| x * c).sum::<f64>() / n;
    let var = pdf.iter().map(|(x, c)| c * (x - mean).powi(2)).sum::<f64>() / n;
    Some((n, mean, var))
}

fn estimate(pdf: &[(f64, f64)]) -> Option<Estimate> {
    let (n, s, var) = mean_var(pdf)?;
    let half = Z95 * (var / n).sqrt();
    let (lo, hi) = ((s - half).max(0.0), (s + half).min(1.0));
    Some(Estimate {
        score: s,
        score_low: lo,
        score_high: hi,
        elo: elo_from_score(s),
        elo_low: elo_from_score(lo),
        elo_high: elo_from_score(hi),
    })
}

/// Estimate from game results (trinomial model).
pub fn trinomial_estimate(t: &Trinomial) -> Option<Estimate> {
    estimate(&t.pdf())
}

/// Estimate from game-pair results (pentanomial model).
pub fn pentanomial_estimate(p: &Pentanomial) -> Option<Estimate> {
    estimate(&p.pdf())
}

/// A proportion with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proportion {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// `k` of `n` with the Wilson score interval, which unlike `p ± z·σ`
/// stays inside [0, 1] and is not empty at 0 or n; `None` when `n` is 0.
pub fn wilson(k: u32, n: u32) -> Option<Proportion> {
    if n == 0 {
        return None;
    }
    let (k, n) = (k.min(n) as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Proportion {
        value: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    })
}

/// Likelihood of superiority: the probability that the first engine is the
/// stronger, from wins and losses (draws carry no information here).
pub fn los(t: &Trinomial) -> f64 {
    let (w, l) = (t.wins as f64, t.losses as f64);
    if w + l == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// The error function, to about 1e-14 (series below 2.5, continued fraction above).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // erf x = 2/√π Σ (-1)^n x^(2n+1) / (n! (2n+1))
        let mut sum = 0.0f64;
        let mut term = x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs().max(1e-300) || n < 1.0 {
            sum += term / (2.0 * n + 1.0);
            n += 1.0;
            term *= -x * x / n;
            if n > 200.0 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc x = exp(-x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + ...))))
        let mut f = x;
        for k in (1..=60).rev() {
            f = x + (k as f64 / 2.0) / f;
        }
        1.0 - (-x * x).exp() / std::f64::consts::PI.sqrt() / f
    }
}

/// SPRT settings: hypotheses in logistic Elo and the error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// H0 accepted: the difference is at most `elo0`.
    AcceptH0,
    /// H1 accepted: the difference is at least `elo1`.
    AcceptH1,
}

impl Sprt {
    /// Reads `elo0=0,elo1=10,alpha=0.05,beta=0.05` (alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}`: expected key=value"))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("`{part}`: not a number"))?;
            match k.trim() {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                other => {
                    return Err(format!(
                        "unknown SPRT key `{other}` (elo0, elo1, alpha, beta)"
                    ))
                }
            }
        }
        if s.elo0.is_nan() || s.elo1.is_nan() {
            return Err("SPRT needs elo0 and elo1".into());
        }
        if s.elo1 <= s.elo0 {
            return Err("SPRT needs elo1 > elo0".into());
        }
        if !(0.0 < s.alpha && s.alpha < 0.5 && 0.0 < s.beta && s.beta < 0.5) {
            return Err("SPRT alpha and beta must lie between 0 and 0.5".into());
        }
        Ok(s)
    }

    /// Lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn state(&self, llr: f64) -> SprtState {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::AcceptH1
        } else if llr <= lo {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }

    /// LLR of game results.
    pub fn llr_trinomial(&self, t: &Trinomial) -> f64 {
        self.llr(&t.pdf())
    }

    /// LLR of game-pair results.
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        self.llr(&p.pdf())
    }

    fn llr(&self, counts: &[(f64, f64)]) -> f64 {
        if counts.iter().all(|c| c.1 == 0.0) {
            return 0.0;
        }
        let reg: Vec<(f64, f64)> = counts.iter().map(|&(x, c)| (x, c.max(1e-3))).collect();
        let n: f64 = reg.iter().map(|c| c.1).sum();
        let pdf: Vec<(f64, f64)> = reg.iter().map(|&(x, c)| (x, c / n)).collect();
        n * gsprt_llr(&pdf, score_from_elo(self.elo0), score_from_elo(self.elo1))
    }
}

/// The maximum-likelihood distribution on the same outcomes as `pdf` whose
/// mean is `s`: `p_i / (1 + λ (x_i - s))`, with λ found by bisection.
pub fn mle_with_mean(pdf: &[(f64, f64)], s: f64) -> Vec<f64> {
    let lo_x = pdf.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let hi_x = pdf.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    // 1 + λ (x - s) > 0 for every x: λ in (-1/(hi - s), 1/(s - lo)).
    let mut a = -1.0 / (hi_x - s) + 1e-12;
    let mut b = 1.0 / (s - lo_x) - 1e-12;
    let f = |l: f64| {
        pdf.iter()
            .map(|(x, p)| p * (x - s) / (1.0 + l * (x - s)))
            .sum::<f64>()
    };
    // f falls as λ grows.
    for _ in 0..200 {
        let m = (a + b) / 2.0;
        if f(m) > 0.0 {
            a = m;
        } else {
            b = m;
        }
    }
    let l = (a + b) / 2.0;
    pdf.iter().map(|(x, p)| p / (1.0 + l * (x - s))).collect()
}

/// Per-unit log-likelihood ratio of H1 (mean `s1`) against H0 (mean `s0`)
/// for an empirical distribution `pdf` of (value, probability).
pub fn gsprt_llr(pdf: &[(f64, f64)], s0: f64, s1: f64) -> f64 {
    let p0 = mle_with_mean(pdf, s0);
    let p1 = mle_with_mean(pdf, s1);
    pdf.iter()
        .zip(p0.iter().zip(&p1))
        .map(|((_, p), (a, b))| p * (b / a).ln())
        .sum()
}

/// The usual quick approximation of [`gsprt_llr`] (fishtest's `LLR_alt2`):
/// `(s1 - s0)(2s - s0 - s1) / (2 σ²)` per unit.
pub fn llr_approx(pdf: &[(f64, f64)], s0: f64, s1: f64) -> f64 {
    let (_, s, var) = mean_var(pdf).unwrap_or((0.0, 0.5, 0.0));
    if var == 0.0 {
        return 0.0;
    }
    (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(elo_from_score(0.5).is_sign_positive());
        // 10^(1/4) : 1 odds is 100 Elo: s = 1/(1 + 10^-0.25) = 0.640065
        assert!(close(score_from_elo(100.0), 0.640_065_3, 1e-6));
        assert!(close(elo_from_score(0.640_065_3), 100.0, 1e-3));
        // 3:1 odds: 400 log10 3 = 190.848
        assert!(close(elo_from_score(0.75), 190.848, 1e-3));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn even_score_is_zero_elo_with_a_symmetric_interval() {
        let t = Trinomial {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        let e = trinomial_estimate(&t).unwrap();
        assert_eq!(e.score, 0.5);
        assert_eq!(e.elo, 0.0);
        assert!(close(e.elo_low, -e.elo_high, 1e-9));
        assert!(trinomial_estimate(&Trinomial::default()).is_none());
    }

    #[test]
    fn trinomial_interval_by_hand() {
        // 60 wins, 20 draws, 20 losses: s = 0.7;
        // σ² = (60·0.3² + 20·0.2² + 20·0.7²)/100 = (5.4 + 0.8 + 9.8)/100 = 0.16;
        // σ/√n = 0.4/10 = 0.04; s ± 1.96·0.04 = 0.7 ± 0.078399 = [0.621601, 0.778399];
        // Elo: -400 log10(1/0.7 - 1) = 147.19; 1/0.621601 - 1 = 0.608750 -> 86.22;
        // 1/0.778399 - 1 = 0.284688 -> 218.25.
        let e = trinomial_estimate(&Trinomial {
            wins: 60,
            draws: 20,
            losses: 20,
        })
        .unwrap();
        assert!(close(e.score, 0.7, 1e-12));
        assert!(close(e.score_low, 0.621_601, 1e-6), "{e:?}");
        assert!(close(e.score_high, 0.778_399, 1e-6), "{e:?}");
        assert!(close(e.elo, 147.19, 0.01), "{e:?}");
        assert!(close(e.elo_low, 86.22, 0.01), "{e:?}");
        assert!(close(e.elo_high, 218.25, 0.01), "{e:?}");
    }

    #[test]
    fn pentanomial_interval_by_hand() {
        // Pairs scoring 0, ½, 1, 1½, 2 points: 1, 2, 4, 2, 1 times.
        // Per-game means x = 0, .25, .5, .75, 1; mean 0.5;
        // σ² = (1·0.25 + 2·0.0625 + 0 + 2·0.0625 + 1·0.25)/10 = 0.075;
        // σ/√10 = 0.0866025; half-width 1.959964·0.0866025 = 0.169738.
        let mut p = Pentanomial::default();
        for (points, times) in [(0, 1), (1, 2), (2, 4), (3, 2), (4, 1)] {
            for _ in 0..times {
                p.add(points);
            }
        }
        assert_eq!(p.pairs(), 10);
        let e = pentanomial_estimate(&p).unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(close(e.score_high - 0.5, 0.169_738, 1e-6), "{e:?}");
        assert!(close(e.score_low, 0.5 - 0.169_738, 1e-6), "{e:?}");
        assert!(close(e.elo_low, -e.elo_high, 1e-9));
    }

    #[test]
    fn wilson_by_hand() {
        // 0 of 10: [0, z²/(n + z²)] = [0, 3.841459/13.841459] = [0, 0.277533].
        let p = wilson(0, 10).unwrap();
        assert_eq!((p.value, p.low), (0.0, 0.0));
        assert!(close(p.high, 0.277_533, 1e-6), "{p:?}");
        // 10 of 10 mirrors it.
        let p = wilson(10, 10).unwrap();
        assert!(close(p.low, 1.0 - 0.277_533, 1e-6) && close(p.high, 1.0, 1e-12));
        // 20 of 100: centre (0.2 + z²/200)/(1 + z²/100) = 0.211098, half-width
        // z/(1 + z²/100)·√(0.0016 + z²/40000) = 0.077731.
        let p = wilson(20, 100).unwrap();
        assert!(
            close(p.low, 0.133_367, 1e-6) && close(p.high, 0.288_829, 1e-6),
            "{p:?}"
        );
        assert_eq!(wilson(0, 0), None);
    }

    #[test]
    fn los_by_hand() {
        // 12 wins, 8 losses: (12 - 8)/sqrt(2·20) = 0.632456; erf = 0.628907;
        // LOS = (1 + 0.628907)/2 = 0.814453.
        let l = los(&Trinomial {
            wins: 12,
            draws: 5,
            losses: 8,
        });
        assert!(close(l, 0.814_453, 1e-6), "{l}");
        assert_eq!(
            los(&Trinomial {
                wins: 0,
                draws: 9,
                losses: 0
            }),
            0.5
        );
        assert!(close(
            los(&Trinomial {
                wins: 8,
                draws: 0,
                losses: 12
            }),
            1.0 - 0.814_453,
            1e-6
        ));
    }

    #[test]
    fn erf_known_values() {
        // Tables: erf(0.5) = 0.5204998778, erf(1) = 0.8427007929, erf(2) = 0.9953222650, erf(3) = 0.9999779095.
        for (x, y) in [
            (0.5, 0.520_499_877_8),
            (1.0, 0.842_700_792_9),
            (2.0, 0.995_322_265_0),
            (3.0, 0.999_977_909_5),
            (0.0, 0.0),
        ] {
            assert!(close(erf(x), y, 1e-9), "erf({x}) = {}", erf(x));
            assert!(close(erf(-x), -y, 1e-9));
        }
    }

    #[test]
    fn sprt_bounds_and_parse() {
        let s = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
        let (lo, hi) = s.bounds();
        // ln(0.05/0.95) = -2.944439; ln(0.95/0.05) = 2.944439
        assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
        assert_eq!(Sprt::parse("elo0=-5,elo1=5").unwrap().alpha, 0.05);
        assert!(Sprt::parse("elo0=5,elo1=0").is_err());
        assert!(Sprt::parse("elo0=0").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,gamma=1").is_err());
        assert_eq!(s.state(3.0), SprtState::AcceptH1);
        assert_eq!(s.state(-3.0), SprtState::AcceptH0);
        assert_eq!(s.state(0.0), SprtState::Continue);
    }

    #[test]
    fn sprt_without_draws_is_the_binomial_sprt() {
        // With no draws the only distribution on {0, 1} with mean s is
        // (1-s, s), so LLR = W ln(s1/s0) + L ln((1-s1)/(1-s0)). Hand values for
        // elo0 = 0, elo1 = 100: s0 = 0.5, s1 = 0.640065;
        // W = 30, L = 20: 30 ln(1.280130) + 20 ln(0.719870) = 7.40885 - 6.57369 = 0.83516.
        // The 0.001 draw count that stands for "no draw seen" moves it by < 0.001.
        let s = Sprt {
            elo0: 0.0,
            elo1: 100.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let llr = s.llr_trinomial(&Trinomial {
            wins: 30,
            draws: 0,
            losses: 20,
        });
        assert!(close(llr, 0.835_16, 2e-3), "{llr}");
        let s0 = 0.5;
        let s1 = score_from_elo(100.0);
        let exact = 30.0 * (s1 / s0).ln() + 20.0 * ((1.0 - s1) / (1.0 - s0)).ln();
        assert!(close(exact, 0.835_16, 1e-4), "{exact}");
    }

    #[test]
    fn sprt_matches_the_approximation_for_small_differences() {
        // For elo0/elo1 close together the GSPRT and fishtest's LLR_alt2 agree.
        let s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let t = Trinomial {
            wins: 420,
            draws: 1100,
            losses: 380,
        };
        let n = t.games() as f64;
        let pdf: Vec<(f64, f64)> = t.pdf().iter().map(|&(x, c)| (x, c / n)).collect();
        let approx = n * llr_approx(&pdf, score_from_elo(0.0), score_from_elo(5.0));
        let exact = s.llr_trinomial(&t);
        assert!(
            close(exact, approx, 0.01 * approx.abs().max(0.1)),
            "{exact} vs {approx}"
        );
        // By hand: s = (420 + 550)/1900 = 0.510526; σ² = (420·0.489474² + 1100·0.010526² + 380·0.510526²)/1900
        // = (100.6266 + 0.1219 + 99.0418)/1900 = 0.105153; s1 = 0.507196;
        // per game (0.007195)(2·0.510526 - 1.007195)/(2·0.105152) = 0.000474; × 1900 = 0.901.
        assert!(close(approx, 0.901, 0.002), "{approx}");
        // The pentanomial LLR agrees with its approximation too.
        let p = Pentanomial {
            counts: [10, 40, 100, 45, 12],
        };
        let llr = s.llr_pentanomial(&p);
        let pdf: Vec<(f64, f64)> = p
            .pdf()
            .iter()
            .map(|&(x, c)| (x, c / p.pairs() as f64))
            .collect();
        let approx = p.pairs() as f64 * llr_approx(&pdf, 0.5, score_from_elo(5.0));
        assert!(
            close(llr, approx, 0.02 * approx.abs().max(0.1)),
            "{llr} vs {approx}"
        );
    }

    #[test]
    fn sprt_no_games_no_evidence() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert_eq!(s.llr_trinomial(&Trinomial::default()), 0.0);
        // All draws: mean 0.5 sits between s0 = 0.5 and s1, evidence for H0.
        assert!(
            s.llr_trinomial(&Trinomial {
                wins: 0,
                draws: 100,
                losses: 0
            }) < 0.0
        );
        // Many wins accept H1.
        assert_eq!(
            s.state(s.llr_trinomial(&Trinomial {
                wins: 300,
                draws: 100,
                losses: 200
            })),
            SprtState::AcceptH1
        );
    }
}
