# Les refus du serveur (`{"error"}`, les erreurs du WebSocket), dans
# la langue de la requête (`base::refusal::Said`).

server-refusal-after-line-number-not = after est un numéro de ligne, pas { $text }
server-refusal-analysis-failed = l'analyse a échoué
server-refusal-bad-action = action invalide : { $e }
server-refusal-bad-json = JSON invalide : { $e }
server-refusal-bad-subscription = abonnement invalide : { $e }
server-refusal-before-game-s-cursor-ms = before est le curseur MS:ID d'une partie, pas { $cursor }
server-refusal-body-must-json-object = le corps doit être un objet JSON
server-refusal-body-tokens-separated-commas = le corps est une liste de jetons séparés par des virgules
server-refusal-bot-api-bot-accounts-parity = l'API Bot est réservée aux comptes bot (`parity user add NAME --bot`)
server-refusal-both-sides-have-moved-resign = les deux camps ont joué : abandonnez au lieu d'annuler
server-refusal-both-sides-move-once-here = ici, les deux camps jouent en même temps : validez, puis révélez
server-refusal-challenge-not-yours-answer = ce n'est pas à vous de répondre à ce défi
server-refusal-chat-line-has-most-characters = un message de discussion fait au plus { $MAX_CHAT_CHARS } caractères
server-refusal-color-white-black-random-not = color vaut white, black ou random, pas { $other }
server-refusal-commitment-64-lowercase-hex-characters = un engagement fait 64 caractères hexadécimaux minuscules (SHA-256)
server-refusal-control-text-direction-characters-chat = caractères de contrôle ou de direction du texte dans un message de discussion
server-refusal-cross-site-requests-may-not = les requêtes intersites ne peuvent ni agir ni ouvrir de WebSocket
server-refusal-database-did-not-answer-within = la base de données n'a pas répondu en { $as_secs } s
server-refusal-empty-chat-line = un message de discussion vide
server-refusal-engine-level-must = le niveau de l'ordinateur doit aller de { $MIN_LEVEL } à { $MAX_LEVEL }
server-refusal-engines-are-all-busy-try = les moteurs sont tous occupés ; réessayez dans une minute
server-refusal-engines-are-analysing-other-games = les moteurs analysent d'autres parties ; réessayez dans quelques minutes
server-refusal-game-does-not-replay = la partie { $id } ne se rejoue pas : { $e }
server-refusal-game-has-many-spectators-takes = cette partie a déjà autant de spectateurs qu'elle peut en accueillir
server-refusal-game-has-no-move-analyse = la partie n'a aucun coup à analyser
server-refusal-game-has-not-started = la partie n'a pas commencé
server-refusal-game-no-state = partie { $id } : pas d'état
server-refusal-game-no-state-2 = partie { $game } : pas d'état
server-refusal-game-node-does-not-answer = partie { $id } : son nœud ne répond pas
server-refusal-game-not-answering = la partie { $id } ne répond pas
server-refusal-game-not-over = la partie n'est pas terminée
server-refusal-game-not-over-can-analysed = la partie n'est pas terminée : elle pourra être analysée une fois finie
server-refusal-game-not-waiting-player = la partie n'attend pas de joueur
server-refusal-game-over = la partie est terminée
server-refusal-game-played-another-node-try = la partie { $id } se joue sur un autre nœud ; réessayez
server-refusal-game-s-analysis-does-not = l'analyse de la partie { $id } est illisible : { $e }
server-refusal-game-s-chat-full-lines = la discussion de cette partie est pleine ({ $most } messages)
server-refusal-game-s-node = le nœud de la partie : { $e }
server-refusal-game-s-node-answered = le nœud de la partie a répondu { $kind } à { $what }
server-refusal-game-s-node-refused-node = le nœud de la partie a refusé une requête de nœud ({ $status }) : { $min }
server-refusal-game-s-node-s-reply = la réponse du nœud de la partie : { $e }
server-refusal-game-s-node-speaks-version = le nœud de la partie parle la version { $version } du protocole des nœuds, celui-ci la { $VERSION }
server-refusal-game-turn-based-nothing-reveal = cette partie se joue en coups alternés : rien à révéler
server-refusal-game-turn-based-send-moves = cette partie se joue en coups alternés : envoyez des coups, pas des engagements
server-refusal-give-time-increment-days = indiquez time et increment, ou days
server-refusal-invite-not-valid-wrong-already = cette invitation n'est pas valide (erronée ou déjà utilisée)
server-refusal-level-1-8-required = level (1 à 8) est requis
server-refusal-line = une ligne : { $e }
server-refusal-log-has-ended = cette connexion a pris fin
server-refusal-log-hold-seat-chat = connectez-vous ou prenez part à la partie pour discuter
server-refusal-metrics-recorder-not-installed = l'enregistreur de métriques n'est pas installé
server-refusal-metrics-token-required-bearer = le jeton des métriques est requis (Bearer)
server-refusal-most-open-challenges-once = au plus { $MAX_CHALLENGES_PER_USER } défis ouverts à la fois
server-refusal-most-open-challenges-one-player = au plus { $MAX_CHALLENGES_PER_PAIR } défis ouverts envers un même joueur
server-refusal-most-open-seeks-once = au plus { $MAX_SEEKS_PER_USER } propositions de partie ouvertes à la fois
server-refusal-most-rated-games-day-between = au plus { $most } parties classées par jour entre les deux mêmes joueurs ; jouez en amicale
server-refusal-move-nonce-do-not-match = le coup et le nonce ne correspondent pas à votre engagement
server-refusal-move-text-too-long = texte du coup trop long
server-refusal-must-whole-number-not = { $key } doit être un nombre entier, pas { $text }
server-refusal-new-game-leased-already = la nouvelle partie { $id } est déjà réservée
server-refusal-no-action = aucune action { $name }
server-refusal-no-game = aucune partie { $id }
server-refusal-no-language-known = aucune langue { $lang } (connues : { $LANGUAGES })
server-refusal-no-live-feed = pas de flux en direct
server-refusal-no-open-challenge = aucun défi ouvert { $id }
server-refusal-no-open-seek = aucune proposition de partie ouverte { $id }
server-refusal-no-rules-variant = aucune règle pour la variante { $id }
server-refusal-no-such-endpoint = point d'accès inconnu
server-refusal-no-such-page = page introuvable
server-refusal-no-such-token = jeton inconnu
server-refusal-no-such-yours = { $what } introuvable parmi les vôtres
server-refusal-no-user = aucun utilisateur { $name }
server-refusal-node-protocol-version-node-speaks = version { $version } du protocole des nœuds ; ce nœud parle la { $VERSION }
server-refusal-node-request = une requête de nœud : { $e }
server-refusal-nonce-32-lowercase-hex-characters = un nonce fait 32 caractères hexadécimaux minuscules
server-refusal-nonce-was-already-used-game = ce nonce a déjà servi dans cette partie : un engagement sur un nonce réutilisé trahit le coup, il ne peut donc pas être révélé
server-refusal-not-logged = non connecté
server-refusal-not-your-turn = ce n'est pas à vous de jouer
server-refusal-offeringdraw-true-false-not = offeringDraw vaut true ou false, pas { $other }
server-refusal-only-cluster-s-nodes-may = seuls les nœuds du cluster peuvent faire des demandes ici
server-refusal-only-game-s-players-write = seuls les joueurs de la partie écrivent dans la discussion des joueurs
server-refusal-only-operator-makes-bot-accounts = seul l'administrateur crée ici des comptes bot : parity user add NAME --bot
server-refusal-opponent-must-friend-not = opponent doit être "friend" ou {"{"}"engine": {"{"}"level": 1..8{"}"}{"}"}, pas { $value }
server-refusal-other-reveal-not-hand-try = l'autre révélation n'est pas encore disponible ; réessayez
server-refusal-personal-api-token-log-needed = un jeton d'API personnel ou une connexion est nécessaire
server-refusal-ratingrange-low-high-not = ratingRange s'écrit LOW-HIGH, pas { $text }
server-refusal-rematch-already-made = la revanche est déjà créée
server-refusal-reveal-only-once-both-commitments = ne révélez qu'une fois les deux engagements reçus
server-refusal-reveal-your-own-move-first = révélez d'abord votre propre coup
server-refusal-revealed-move-coordinates-rules-write = un coup révélé s'écrit en coordonnées, comme les règles les écrivent : de 1 à { $MAX_MOVE_TEXT } caractères ASCII imprimables, sans espace
server-refusal-room-player-spectator-not = room vaut player ou spectator, pas { $other }
server-refusal-seat-taken = la place est prise
server-refusal-seat-token-required-bearer-cookie = un jeton de place est requis (Bearer ou cookie)
server-refusal-seek-starts-from-variant-s = une proposition de partie part de la position initiale de la variante
server-refusal-seek-takes-ratings-not = cette proposition de partie est ouverte aux classements { $rating_range }, pas { $by_rating }
server-refusal-server-not-node-cluster = ce serveur n'est pas un nœud d'un cluster
server-refusal-server-shutting-down-try-again = ce serveur s'arrête ; réessayez dans un instant
server-refusal-since-must-seq-number-not = since doit être un numéro seq, pas { $s }
server-refusal-spectators-cannot-act-game = les spectateurs ne peuvent pas agir dans cette partie
server-refusal-status-must-live-finished-not = status doit être live ou finished, pas { $other }
server-refusal-storage-failed = échec de l'enregistrement : { $e }
server-refusal-takeback-yes-takeback-no = takeback/yes ou takeback/no
server-refusal-text-required = text est requis
server-refusal-there-no-draw-offer-decline = il n'y a pas de proposition de nulle à refuser
server-refusal-there-no-rematch-offer = il n'y a pas de proposition de revanche
server-refusal-time-minutes-not = time est en minutes, pas { $t }
server-refusal-token-holds-no-seat-game = ce jeton n'occupe aucune place dans cette partie
server-refusal-token-holds-no-seat-game-2 = ce jeton n'a aucune place dans cette partie
server-refusal-token-lacks-scope = ce jeton n'a pas la portée { $scope }
server-refusal-token-lacks-scope-bot-play = ce jeton n'a pas la portée bot:play
server-refusal-too-slow-reader = lecteur trop lent
server-refusal-true-false-not = { $key } vaut true ou false, pas { $other }
server-refusal-victory-claimed-only-game-without = la victoire ne se réclame que dans une partie sans pendule, une fois les deux engagements reçus
server-refusal-wrong-user-name-password = nom d'utilisateur ou mot de passe incorrect
server-refusal-yes-no = { $route }/yes ou { $route }/no
server-refusal-you-already-asked-rematch = vous avez déjà demandé une revanche
server-refusal-you-already-committed-turn = vous avez déjà validé votre coup pour ce tour
server-refusal-you-already-offered-draw = vous avez déjà proposé la nulle
server-refusal-you-already-revealed-turn = vous avez déjà révélé votre coup pour ce tour
server-refusal-you-cannot-challenge-yourself = vous ne pouvez pas vous défier vous-même
server-refusal-your-opponent-may-still-reveal = votre adversaire peut encore révéler pendant { $wait } s
server-refusal-your-own-seek = c'est votre propre proposition de partie

# Un coup refusé (les raisons des règles).
server-move-empty = coup illisible : coup vide
server-move-garbled = coup illisible : impossible de lire `{ $text }` comme un coup
server-move-unknown-piece = coup illisible : aucune pièce n'a la lettre `{ $letter }` dans cette variante
server-move-not-canonical = coup illisible : { $text } ne sont pas les coordonnées que les règles écrivent pour ce coup : { $canonical }
server-move-illegal = `{ $text }` n'est pas un coup légal ici
server-move-illegal-joins-own-alone = `{ $text }` n'est pas un coup légal ici : une pièce ne peut pas rejoindre seule les pièces de son camp en { $square } ; une foule ne se forme que là où se tient une pièce ennemie
server-move-illegal-not-yours = `{ $text }` n'est pas un coup légal ici : la pièce en { $square } n'est pas { $color ->
        [white] aux Blancs
       *[black] aux Noirs
    }
server-move-illegal-no-piece = `{ $text }` n'est pas un coup légal ici : aucune pièce en { $square }
server-move-illegal-no-castling = `{ $text }` n'est pas un coup légal ici : cette variante n'a pas de roque
server-move-illegal-castling-blocked = `{ $text }` n'est pas un coup légal ici : ce roque n'est pas possible maintenant (le roi ou la tour a bougé, ou le chemin est bloqué ou attaqué)
server-move-ambiguous = `{ $text }` est ambigu : ce peut être { $candidates }

# Un compte refusé.
server-account-bad-name = un nom d'utilisateur fait 2 à 20 lettres, chiffres, `-` ou `_`, et commence par une lettre ou un chiffre
server-account-name-taken = le nom { $name } est déjà pris
server-account-no-such-user = aucun utilisateur ne s'appelle { $name }
server-account-bad-scope = portée inconnue { $scope } (connues : { $known })
server-account-short-password = un mot de passe fait au moins 8 caractères
server-account-reserved = le nom { $name } est réservé aux places de jeu et au serveur
server-account-looks-like = le nom { $name } ressemble à celui du joueur { $other }
server-account-busy = le serveur vérifie beaucoup de mots de passe ; réessayez dans un instant

# Une limite de fréquence (429), selon le nom de la limite.
server-too-many-engine-games = trop de parties contre l'ordinateur créées depuis votre adresse ; réessayez plus tard
server-too-many-games = trop de parties créées depuis votre adresse ; réessayez plus tard
server-too-many-analyses = trop d'analyses depuis votre adresse ; réessayez plus tard
server-too-many-game-analyses = trop d'analyses de parties depuis votre adresse ; réessayez plus tard
server-too-many-signups = trop d'inscriptions depuis votre adresse ; réessayez plus tard
server-too-many-logins = trop de tentatives de connexion depuis votre adresse ; réessayez plus tard
server-too-many-logins-per-account = trop de tentatives de connexion pour ce compte ; réessayez plus tard
server-too-many-chat-lines = trop de messages de discussion ; réessayez plus tard
server-too-many-tournaments = trop de tournois et d'équipes créés ; réessayez plus tard
server-too-many-actions = trop d'actions depuis votre adresse ; réessayez plus tard
server-too-many-auth-failures = trop de jetons refusés depuis votre adresse ; réessayez plus tard

# Une position de départ (FEN) refusée.
server-fen-empty = FEN invalide pour { $variant } : FEN vide
server-fen-rank-count = FEN invalide pour { $variant } : l'échiquier a { $found } rangées, la variante en a { $expected }
server-fen-rank-width = FEN invalide pour { $variant } : la rangée { $rank } couvre { $found } colonnes, la variante en a { $expected }
server-fen-unknown-piece = FEN invalide pour { $variant } : lettre de pièce inconnue `{ $letter }`
server-fen-bad-side = FEN invalide pour { $variant } : le camp au trait doit être `w` ou `b`, pas `{ $side }`
server-fen-bad-castling = FEN invalide pour { $variant } : champ de roque invalide `{ $field }`
server-fen-bad-en-passant = FEN invalide pour { $variant } : champ de prise en passant invalide `{ $field }`
server-fen-bad-clock = FEN invalide pour { $variant } : compteur de coups invalide `{ $field }`
server-fen-too-many-fields = FEN invalide pour { $variant } : trop de champs après les compteurs de coups
server-fen-no-king = FEN invalide pour { $variant } : { $color ->
        [white] les Blancs n'ont
       *[black] les Noirs n'ont
    } pas de roi
server-fen-too-many-kings = FEN invalide pour { $variant } : { $color ->
        [white] les Blancs ont
       *[black] les Noirs ont
    } plus d'un roi
server-fen-pawn-last-rank = FEN invalide pour { $variant } : un pion { $color ->
        [white] blanc
       *[black] noir
    } se trouve en { $square }, sa rangée de promotion
server-fen-square-taken = FEN invalide pour { $variant } : deux pièces se trouvent en { $square }
server-fen-opposite-check = FEN invalide pour { $variant } : { $color ->
        [white] les Blancs sont en échec mais c'est aux Noirs
       *[black] les Noirs sont en échec mais c'est aux Blancs
    } de jouer
server-fen-castling-right = FEN invalide pour { $variant } : le droit de roque en { $square } n'a ni roi ni tour non déplacés pour l'accompagner
server-fen-en-passant-square = FEN invalide pour { $variant } : la case de prise en passant { $square } ne suit pas une avance de deux cases
server-fen-over = FEN invalide pour { $variant } : la partie y est déjà finie ({ $outcome })
server-refusal-no-tournament = aucun tournoi { $id }
server-refusal-no-team = aucune équipe { $id }
server-refusal-tournament-bad-field = le champ { $field } d'un tournoi ne peut pas valoir { $value }
server-refusal-not-team-member = seuls les membres de l'équipe { $team } peuvent faire cela
server-refusal-tournament-over = ce tournoi est terminé
server-refusal-tournament-no-bots = ce tournoi n'admet pas de bots
server-refusal-tournament-joins-closed = ce tournoi ne prend plus de nouveaux joueurs
server-refusal-tournament-full = ce tournoi toutes rondes est complet ({ $most } joueurs)
server-refusal-tournament-not-creator = seul le créateur du tournoi peut faire cela
server-refusal-tournament-arena-no-rounds = une arène n'a pas de rondes à programmer
server-refusal-team-bad-name = une équipe a besoin d'un nom de 1 à 60 caractères et d'une description d'au plus 2000
server-refusal-team-exists = une équipe { $id } existe déjà
server-refusal-team-leader-stays = le chef de l'équipe ne peut pas la quitter
server-refusal-berserk-before-first-move = le berserk n'est possible qu'avant votre premier coup, et une fois
server-refusal-berserk-needs-clock = le berserk demande une pendule avec du temps initial
server-refusal-berserk-not-allowed = le tournoi de cette partie n'autorise pas le berserk
server-refusal-berserk-not-your-game = seul un joueur de cette partie peut y passer en berserk
server-refusal-tournament-no-rematch = une partie de tournoi n'a pas de revanche : le tournoi apparie à nouveau ses joueurs
