# The header's account control (account.js) and notification bell (bell.js).

## Log in, sign up, log out
account-name = Name
account-password = Password
account-cancel = Cancel
account-log-in = Log in
account-sign-up = Sign up
account-log-out = Log out

## The bell
account-bell-label = Notifications
# The bell button's label while some are unread.
account-bell-unread = { $count ->
    [one] Notifications: { $count } unread
   *[other] Notifications: { $count } unread
 }
account-bell-empty = Nothing yet. You are told here when it is your turn in a correspondence game or someone challenges you.
# When a notification came.
account-bell-just-now = just now
account-bell-minutes-ago = { $count } min ago
account-bell-hours-ago = { $count } h ago
account-bell-days-ago = { $count ->
    [one] { $count } day ago
   *[other] { $count } days ago
 }
