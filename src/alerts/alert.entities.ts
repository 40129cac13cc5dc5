import { AlertBatteryLowEntity } from './alert-battery-low.entity.js';
import { AlertNotificationEntity } from './alert-notification.entity.js';
import { AlertEntity } from './alert.entity.js';
import { SprungEpisodeEntity } from './sprung-episode.entity.js';

export const alertEntities = [AlertEntity, AlertNotificationEntity, SprungEpisodeEntity, AlertBatteryLowEntity];
