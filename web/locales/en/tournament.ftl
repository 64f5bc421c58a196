# Tournaments (tournaments.js): the list, the creation form, one tournament's page.

tournament-heading = Tournaments
tournament-running = Running
tournament-upcoming = Upcoming
tournament-finished = Finished
tournament-none = None.
tournament-system = { $system ->
        [arena] Arena
        [swiss] Swiss
       *[robin] Round robin
    }
tournament-players = { $count ->
        [one] { $count } player
       *[other] { $count } players
    }
tournament-won-by = won by { $name }
tournament-new = New tournament
tournament-system-label = System
tournament-name = Name
tournament-length = Length in minutes
tournament-rounds = Rounds
tournament-team = Team
tournament-needs-team = A Swiss event or round robin belongs to a team; make one first:
tournament-team-name = team name
tournament-create-team = Create the team
tournament-starts-in = Starts in (minutes)
tournament-bots = Bots may join
tournament-create = Create the tournament
tournament-log-in-to-create = Log in to create a tournament.
tournament-no-players = No players yet.
tournament-column-player = Player
tournament-column-sheet = Games
tournament-column-score = Score
tournament-column-points = Points
tournament-column-buchholz = Buchholz
tournament-column-sb = Sonneborn-Berger
tournament-on-fire = on fire: the next win counts double
tournament-no-games = No games in play.
tournament-round = Round { $round }
tournament-byes = Bye: { $names }
tournament-status-finished = Finished.
tournament-status-starts-in = Starts in { $seconds } s.
tournament-status-ends-in = Ends in { $seconds } s.
tournament-status-round = Round { $round } of { $rounds }.
tournament-casual = casual
tournament-standings = Standings
tournament-games-in-play = Games in play
tournament-pairings = Pairings
tournament-join = Join
tournament-withdraw = Withdraw
tournament-back = Back to the tournament
