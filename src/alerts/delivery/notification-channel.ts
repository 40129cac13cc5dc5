/**
 * A notification's channel and address in SQL, over the notification `n` and its alert `a`: an
 * escalation goes to the alert's escalation target when it has one, everything else to its target
 * (as `NotificationSender.targetOf` reads them). The webhook claims and the email claims split the
 * pending notifications by it.
 */
const ESCALATED = "n.recipient = 'escalation' AND a.escalate_channel IS NOT NULL AND a.escalate_target IS NOT NULL";

export const CHANNEL_SQL = `(CASE WHEN ${ESCALATED} THEN a.escalate_channel ELSE a.channel END)`;

export const ADDRESS_SQL = `(CASE WHEN ${ESCALATED} THEN a.escalate_target ELSE a.target END)`;

/** True for a notification `n` that is sent by email (false when its alert is gone: that is the webhook path's to end). */
export const SENT_BY_EMAIL_SQL = `EXISTS (SELECT 1 FROM alerts a WHERE a.id = n.alert_id AND ${CHANNEL_SQL} = 'email')`;
