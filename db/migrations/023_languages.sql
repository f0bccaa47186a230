-- Languages: the one a table's public messages are written in (chosen when
-- it is opened; tables of earlier versions read English), and the one a
-- user chose for their own private messages with /spades language (NULL:
-- the language their Discord app is set to).

ALTER TABLE tables ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
ALTER TABLE user_prefs ADD COLUMN language TEXT;
