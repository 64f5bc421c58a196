# Ce que le serveur écrit de lui-même : notifications (la cloche, Web
# Push) et courriels, dans la langue du compte.

server-notice-your-turn = À vous de jouer contre { $opponent }
server-notice-your-turn-anonymous = À vous de jouer contre votre adversaire
server-notice-challenge = { $challenger } vous défie en { $variant }
server-mail-subject-one = Parity : { $text }
server-mail-subject-many = { $count ->
    [one] Parity : { $count } chose vous attend
   *[other] Parity : { $count } choses vous attendent
 }
server-mail-footer = Vous recevez ces courriels parce que vous les avez demandés dans vos réglages de Parity.

# A refusal whose words come from elsewhere (a database, the rules), as they are.
server-as-is = { $text }
