//! Tournaments: arenas, Swiss events and round robins in every variant,
//! the simultaneous ones included. The pairing rules are pure
//! (`arena`, `swiss`, `round_robin`); `standings` scores an event's rows,
//! `plan` decides its next step from them; `runner` takes those steps on
//! the one node that runs the event, and this file is what players and
//! creators ask of it.

pub mod arena;
pub mod plan;
pub mod round_robin;
mod runner;
pub mod settings;
pub mod standings;
pub mod swiss;

use crate::base::refusal::{Refusal, Said};
use crate::base::secret;
use crate::game::event::now_ms;
use crate::store::tournaments::{TeamRow, TournamentChange, TournamentRow};
use crate::store::{Change, UserRow};

pub use runner::Tournaments;
use settings::{Request, System, MAX_ROUND_ROBIN_PLAYERS};

/// A tournament, its players, games and byes, as read at one time.
#[derive(Clone, Debug)]
pub struct Tournament {
    pub row: TournamentRow,
    pub system: System,
    /// The variant's name as the page shows it.
    pub variant_name: String,
    pub settings: settings::Settings,
    pub entrants: Vec<crate::store::tournaments::EntrantRow>,
    pub games: Vec<crate::store::tournaments::PairedGameRow>,
    pub byes: Vec<crate::store::tournaments::ByeRow>,
}

fn no_tournament(id: &str) -> Refusal {
    Refusal::NotFound(Said::new("server-refusal-no-tournament").with("id", id))
}

impl Tournaments {
    /// Reads tournament `id` whole.
    pub async fn event(&self, id: &str) -> Result<Tournament, Refusal> {
        let store = self.hub().store();
        let row = store
            .tournament(id)
            .await?
            .ok_or_else(|| no_tournament(id))?;
        let system = System::from_name(&row.system).ok_or_else(|| {
            Refusal::Internal(Said::as_is(format!(
                "tournament {id}: system {}",
                row.system
            )))
        })?;
        let settings = serde_json::from_str(&row.settings_json)
            .map_err(|e| Refusal::Internal(Said::as_is(format!("tournament {id}: {e}"))))?;
        let variant = self.hub().registry().get(&row.variant);
        Ok(Tournament {
            system,
            variant_name: variant.map_or_else(|| row.variant.clone(), |v| v.spec.name.clone()),
            settings,
            entrants: store.entrants(id).await?,
            games: store.paired_games(id).await?,
            byes: store.byes(id).await?,
            row,
        })
    }

    /// Creates a tournament of `creator`'s; a team's event needs its
    /// creator in the team.
    pub async fn create(&self, creator: &UserRow, request: Request) -> Result<Tournament, Refusal> {
        let hub = self.hub();
        hub.quotas().create_tournament(&creator.id)?;
        let variant = hub
            .registry()
            .get_or_err(&request.variant)
            .map_err(|e| Refusal::Malformed(e.to_string().into()))?;
        if let Some(fen) = &request.settings.position {
            crate::hub::new_game::start_position(variant, fen)?;
        }
        if let Some(team) = &request.team_id {
            if hub.store().team(team).await?.is_none() {
                return Err(no_team(team));
            }
            if !hub.store().is_team_member(team, &creator.id).await? {
                return Err(Refusal::Forbidden(
                    Said::new("server-refusal-not-team-member").with("team", team),
                ));
            }
        }
        let now = now_ms();
        let id = secret::new_tournament_id();
        let name = match request.name.is_empty() {
            true => format!("{} {}", variant.spec.name, request.system.name()),
            false => request.name.clone(),
        };
        let row = TournamentRow {
            id: id.clone(),
            system: request.system.name().to_string(),
            name,
            creator: creator.id.clone(),
            team_id: request.team_id.clone(),
            variant: variant.id().to_string(),
            clock_limit: i64::from(request.clock_limit),
            clock_increment: i64::from(request.clock_increment),
            rated: request.rated,
            settings_json: serde_json::to_string(&request.settings).unwrap_or_default(),
            created_ms: now,
            starts_ms: request.starts_ms.max(now),
            status: "created".into(),
            batch: 0,
            round: 0,
            next_round_ms: None,
            finished_ms: None,
        };
        hub.writer
            .write(vec![Change::Tournament(TournamentChange::New(row))])
            .await?;
        self.event(&id).await
    }

    /// Joins `user` to tournament `id` (again, after a withdrawal).
    pub async fn join(&self, id: &str, user: &UserRow) -> Result<(), Refusal> {
        let hub = self.hub();
        let event = self.event(id).await?;
        if event.row.status == "finished" {
            return Err(Refusal::NotNow(Said::new("server-refusal-tournament-over")));
        }
        if user.bot && !event.settings.bots {
            return Err(Refusal::Forbidden(Said::new(
                "server-refusal-tournament-no-bots",
            )));
        }
        if let Some(team) = &event.row.team_id {
            if !hub.store().is_team_member(team, &user.id).await? {
                return Err(Refusal::Forbidden(
                    Said::new("server-refusal-not-team-member").with("team", team),
                ));
            }
        }
        let known = event.entrants.iter().any(|e| e.user.id == user.id);
        if !known {
            let late = match event.system {
                System::Arena => false,
                System::RoundRobin => event.row.status != "created",
                // Lichess's rule: late joins until half the rounds have begun.
                System::Swiss => event.row.round * 2 > i64::from(event.settings.nb_rounds),
            };
            if late {
                return Err(Refusal::NotNow(Said::new(
                    "server-refusal-tournament-joins-closed",
                )));
            }
            if event.system == System::RoundRobin && event.entrants.len() >= MAX_ROUND_ROBIN_PLAYERS
            {
                return Err(Refusal::NotNow(
                    Said::new("server-refusal-tournament-full")
                        .with("most", MAX_ROUND_ROBIN_PLAYERS),
                ));
            }
        }
        let (rating, _) =
            crate::accounts::glicko::shown_rating(hub.store(), &user.id, &event.row.variant)
                .await?;
        hub.writer
            .write(vec![Change::Tournament(TournamentChange::Join {
                tournament: id.to_string(),
                user_id: user.id.clone(),
                rating,
                at_ms: now_ms(),
                joined_round: event.row.round,
            })])
            .await?;
        self.nudge();
        Ok(())
    }

    /// Withdraws `user`: no more pairings; games in play go on and count.
    pub async fn withdraw(&self, id: &str, user: &UserRow) -> Result<(), Refusal> {
        self.event(id).await?;
        self.hub()
            .writer
            .write(vec![Change::Tournament(TournamentChange::Withdraw {
                tournament: id.to_string(),
                user_id: user.id.clone(),
            })])
            .await?;
        Ok(())
    }

    /// Ends tournament `id` now, as its creator asks: no more pairings;
    /// games in play finish and count.
    pub async fn terminate(&self, id: &str, user: &UserRow) -> Result<(), Refusal> {
        let event = self.event(id).await?;
        if event.row.creator != user.id {
            return Err(Refusal::Forbidden(Said::new(
                "server-refusal-tournament-not-creator",
            )));
        }
        self.hub()
            .writer
            .write(vec![Change::Tournament(TournamentChange::Finish {
                tournament: id.to_string(),
                at_ms: now_ms(),
            })])
            .await?;
        Ok(())
    }

    /// Sets when the next round of a Swiss event or round robin is
    /// paired (its creator's call); once the current round is over.
    pub async fn schedule_next_round(
        &self,
        id: &str,
        user: &UserRow,
        at_ms: i64,
    ) -> Result<(), Refusal> {
        let event = self.event(id).await?;
        if event.row.creator != user.id {
            return Err(Refusal::Forbidden(Said::new(
                "server-refusal-tournament-not-creator",
            )));
        }
        if event.system == System::Arena {
            return Err(Refusal::NotNow(Said::new(
                "server-refusal-tournament-arena-no-rounds",
            )));
        }
        // Before the start, the date is the start's (lichess moves `startsAt`).
        let change = match event.row.status.as_str() {
            "created" => TournamentChange::Reschedule {
                tournament: id.to_string(),
                starts_ms: at_ms,
            },
            _ => TournamentChange::Schedule {
                tournament: id.to_string(),
                next_round_ms: at_ms,
                replace: true,
            },
        };
        self.hub()
            .writer
            .write(vec![Change::Tournament(change)])
            .await?;
        self.nudge();
        Ok(())
    }

    /// Creates a team led by `leader`.
    pub async fn create_team(
        &self,
        leader: &UserRow,
        name: &str,
        description: &str,
    ) -> Result<TeamRow, Refusal> {
        let hub = self.hub();
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 60 || description.chars().count() > 2000 {
            return Err(Refusal::Malformed(Said::new(
                "server-refusal-team-bad-name",
            )));
        }
        hub.quotas().create_tournament(&leader.id)?;
        let id = team_id(name);
        if hub.store().team(&id).await?.is_some() {
            return Err(Refusal::NotNow(
                Said::new("server-refusal-team-exists").with("id", &id),
            ));
        }
        let team = TeamRow {
            id,
            name: name.to_string(),
            description: description.to_string(),
            leader: leader.id.clone(),
            created_ms: now_ms(),
        };
        hub.writer
            .write(vec![Change::Tournament(TournamentChange::NewTeam(
                team.clone(),
            ))])
            .await?;
        Ok(team)
    }

    pub async fn join_team(&self, team: &str, user: &UserRow) -> Result<(), Refusal> {
        let hub = self.hub();
        if hub.store().team(team).await?.is_none() {
            return Err(no_team(team));
        }
        hub.writer
            .write(vec![Change::Tournament(TournamentChange::JoinTeam {
                team: team.to_string(),
                user_id: user.id.clone(),
                at_ms: now_ms(),
            })])
            .await?;
        Ok(())
    }

    pub async fn leave_team(&self, team: &str, user: &UserRow) -> Result<(), Refusal> {
        let hub = self.hub();
        let row = hub.store().team(team).await?.ok_or_else(|| no_team(team))?;
        if row.leader == user.id {
            return Err(Refusal::NotNow(Said::new(
                "server-refusal-team-leader-stays",
            )));
        }
        hub.writer
            .write(vec![Change::Tournament(TournamentChange::LeaveTeam {
                team: team.to_string(),
                user_id: user.id.clone(),
            })])
            .await?;
        Ok(())
    }
}

fn no_team(id: &str) -> Refusal {
    Refusal::NotFound(Said::new("server-refusal-no-team").with("id", id))
}

/// A team's id from its name, as lichess makes them: lowercase words
/// joined by dashes.
pub fn team_id(name: &str) -> String {
    let mut id = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    let id = id.trim_end_matches('-').to_string();
    match id.is_empty() {
        true => secret::new_tournament_id().to_ascii_lowercase(),
        false => id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn team_ids_are_lowercase_words_with_dashes() {
        assert_eq!(team_id("The Parity Club!"), "the-parity-club");
        assert_eq!(team_id("  a  b "), "a-b");
        assert_eq!(team_id("!!!").len(), 8);
    }
}
