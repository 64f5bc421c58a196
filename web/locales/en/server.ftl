# What the server writes on its own: notifications (the bell, Web Push)
# and mail, in the account's language.

server-notice-your-turn = Your turn against { $opponent }
server-notice-your-turn-anonymous = Your turn against your opponent
server-notice-challenge = { $challenger } challenges you to { $variant }
server-mail-subject-one = Parity: { $text }
server-mail-subject-many = { $count ->
    [one] Parity: { $count } thing needs you
   *[other] Parity: { $count } things need you
 }
server-mail-footer = You get these mails because you asked for them in your Parity settings.

# A refusal whose words come from elsewhere (a database, the rules), as they are.
server-as-is = { $text }
