# L'en-tête de la page et les mots de toutes les pages.

common-tagline = échecs simultanés, en foule et féeriques
common-settings = Réglages
common-needs-javascript = Cette page a besoin de JavaScript.
common-nav-your-games = vos parties
common-nav-account = compte
common-nav-notifications = notifications

# app.js
common-invite-failed = impossible de rejoindre avec cette invitation : { $error }
common-tournaments = Tournois
