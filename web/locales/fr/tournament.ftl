# Tournaments (tournaments.js): the list, the creation form, one tournament's page.

tournament-heading = Tournois
tournament-running = En cours
tournament-upcoming = À venir
tournament-finished = Terminés
tournament-none = Aucun.
tournament-system = { $system ->
        [arena] Arène
        [swiss] Suisse
       *[robin] Toutes rondes
    }
tournament-players = { $count ->
        [one] { $count } joueur
       *[other] { $count } joueurs
    }
tournament-won-by = gagné par { $name }
tournament-new = Nouveau tournoi
tournament-system-label = Système
tournament-name = Nom
tournament-length = Durée en minutes
tournament-rounds = Rondes
tournament-team = Équipe
tournament-needs-team = Un tournoi suisse ou toutes rondes appartient à une équipe ; créez-en une d'abord :
tournament-team-name = nom de l'équipe
tournament-create-team = Créer l'équipe
tournament-starts-in = Commence dans (minutes)
tournament-bots = Les bots peuvent participer
tournament-create = Créer le tournoi
tournament-log-in-to-create = Connectez-vous pour créer un tournoi.
tournament-no-players = Aucun joueur pour l'instant.
tournament-column-player = Joueur
tournament-column-sheet = Parties
tournament-column-score = Score
tournament-column-points = Points
tournament-column-buchholz = Buchholz
tournament-column-sb = Sonneborn-Berger
tournament-on-fire = en série : la prochaine victoire compte double
tournament-no-games = Aucune partie en cours.
tournament-round = Ronde { $round }
tournament-byes = Exempt : { $names }
tournament-status-finished = Terminé.
tournament-status-starts-in = Commence dans { $seconds } s.
tournament-status-ends-in = Se termine dans { $seconds } s.
tournament-status-round = Ronde { $round } sur { $rounds }.
tournament-casual = amical
tournament-standings = Classement
tournament-games-in-play = Parties en cours
tournament-pairings = Appariements
tournament-join = Rejoindre
tournament-withdraw = Se retirer
tournament-back = Retour au tournoi
